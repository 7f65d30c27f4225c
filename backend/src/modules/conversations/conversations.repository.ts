import { Injectable } from '@nestjs/common';
import { prepared } from '../../database/prepared-statements';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, ObjectLiteral, Repository } from 'typeorm';
import { whereOwned, type OwnerScope } from '../../common/database/owner-scope';
import type { Page } from '../../common/http/pagination';
import type { TransactionStatement } from '../../database/unit-of-work';
import { ORDER_BY, type ConversationSort } from './conversation-rules';
import { Conversation, ConversationFile, ConversationTag } from './conversation.entity';

export interface ConversationFilter {
  /** A LIKE pattern the name must match. */
  name?: string | null;
  archived?: boolean;
  /** Every one of these tags. */
  tags?: string[];
}

export interface AvatarUsageRow {
  avatar_id: number;
  conversations: number;
  users: number;
}

export type NewConversation = Pick<
  Conversation,
  'user_id' | 'organization_id' | 'name' | 'model' | 'tags' | 'avatar_id'
>;
export type ConversationChanges = Partial<
  Pick<Conversation, 'name' | 'model' | 'tags' | 'archived' | 'avatar_id'>
>;

/** The attached file's columns in a row of `ownedWithFileStatement` (all null without one). */
interface OwnedFileColumns {
  f_file_id: number | null;
  f_extracted_text: string | null;
  f_createdAt: Date | null;
}

/** The conversations, conversation_tags and conversation_files tables: the only code that touches them. */
@Injectable()
export class ConversationsRepository {
  constructor(
    @InjectRepository(Conversation) private readonly conversations: Repository<Conversation>,
    @InjectRepository(ConversationTag) private readonly tags: Repository<ConversationTag>,
    @InjectRepository(ConversationFile) private readonly files: Repository<ConversationFile>,
  ) {}

  /**
   * Per avatar: conversations opened with it in [from, to) (chats with the avatar and a user's avatar thread) and
   * the users who opened them, the `limit` most used; and the conversations with any avatar in the range. The
   * total rides on the rows (a window over every avatar's count, taken before the limit), so only the shown rows
   * leave the database. A user is counted at their first conversation with the avatar in the range: the one whose
   * previous conversation with it (previous_with_avatar_at) is none or before the range, which no later one is.
   */
  async avatarUsage(
    range: { from: Date; to: Date },
    limit: number,
  ): Promise<{ conversations: number; rows: AvatarUsageRow[] }> {
    const rows = await this.conversations
      .createQueryBuilder('c')
      .select('COALESCE(c.avatar_id, c.thread_avatar_id)', 'avatar_id')
      .addSelect('count(*)::int', 'conversations')
      .addSelect(
        '(count(*) FILTER (WHERE c.previous_with_avatar_at IS NULL OR c.previous_with_avatar_at < :from))::int',
        'users',
      )
      .addSelect('(sum(count(*)) OVER ())::int', 'all_conversations')
      .where('COALESCE(c.avatar_id, c.thread_avatar_id) IS NOT NULL')
      .andWhere('c."createdAt" >= :from AND c."createdAt" < :to', range)
      .groupBy('COALESCE(c.avatar_id, c.thread_avatar_id)')
      .orderBy('conversations', 'DESC')
      .addOrderBy('avatar_id', 'ASC')
      .limit(limit)
      .getRawMany<AvatarUsageRow & { all_conversations: number }>();
    return {
      conversations: rows[0]?.all_conversations ?? 0,
      rows: rows.map(({ avatar_id, conversations, users }) => ({ avatar_id, conversations, users })),
    };
  }

  private repo(m?: EntityManager): Repository<Conversation> {
    return m ? m.getRepository(Conversation) : this.conversations;
  }

  async page(
    scope: OwnerScope,
    filter: ConversationFilter,
    sort: ConversationSort,
    page: Page,
  ): Promise<{ rows: Conversation[]; total: number }> {
    // Threads with avatars are shown on the avatar's page, not among conversations.
    const qb = whereOwned(this.conversations.createQueryBuilder('c'), scope, 'c').andWhere(
      'c.thread_avatar_id IS NULL',
    );
    if (filter.name) qb.andWhere('c.name ILIKE :name', { name: filter.name });
    if (filter.archived !== undefined) qb.andWhere('c.archived = :archived', { archived: filter.archived });
    // A conversation must carry every tag asked for; each check is a primary-key lookup in conversation_tags.
    (filter.tags ?? []).forEach((tag, i) =>
      qb.andWhere(
        `EXISTS (SELECT 1 FROM conversation_tags ct WHERE ct.conversation_id = c.conversation_id AND ct.tag = :tag${i})`,
        { [`tag${i}`]: tag },
      ),
    );
    const rows = qb.clone();
    for (const [expression, direction] of ORDER_BY[sort]) rows.addOrderBy(expression, direction);
    const [found, total] = await Promise.all([
      rows.offset(page.skip).limit(page.limit).getMany(),
      qb.getCount(),
    ]);
    return { rows: found, total };
  }

  /** Tags of the scope's conversations with how many carry each, case-insensitively sorted. */
  tagCounts(scope: OwnerScope, archived?: boolean): Promise<{ tag: string; conversations: number }[]> {
    const qb = whereOwned(
      this.tags
        .createQueryBuilder('ct')
        .innerJoin(Conversation, 'c', 'c.conversation_id = ct.conversation_id')
        .select('ct.tag', 'tag')
        .addSelect('count(*)::int', 'conversations'),
      scope,
      'c',
    );
    qb.andWhere('c.thread_avatar_id IS NULL');
    if (archived !== undefined) qb.andWhere('c.archived = :archived', { archived });
    return qb.groupBy('ct.tag').orderBy('lower(ct.tag)').addOrderBy('ct.tag').getRawMany();
  }

  /** `lock` holds the row for the rest of `m`'s transaction (a concurrent delete or attach waits). */
  findOwned(scope: OwnerScope, id: number, m?: EntityManager, lock = false): Promise<Conversation | null> {
    const qb = whereOwned(this.repo(m).createQueryBuilder('c'), scope, 'c').andWhere(
      'c.conversation_id = :id',
      { id },
    );
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /**
   * Like `findOwned`, with the attached file's row, as a statement for another module's transaction to run in
   * its opening round trip (a message's admission), `toOwnedWithFile` reading its rows. Hand-written so it can
   * travel with START TRANSACTION: a message's path reads both, and each round trip delays its first token.
   */
  ownedWithFileStatement(scope: OwnerScope, id: number): TransactionStatement {
    return {
      sql: prepared(`SELECT c.conversation_id, c.user_id, c.organization_id, c.name, c.model, c.tags, c.archived,
          c.avatar_id, c.thread_avatar_id, c."createdAt", c."updatedAt",
          f.file_id AS f_file_id, f.extracted_text AS f_extracted_text, f."createdAt" AS "f_createdAt"
        FROM conversations c LEFT JOIN conversation_files f ON f.conversation_id = c.conversation_id
        WHERE c.user_id = $1 AND COALESCE(c.organization_id, 0) = $2 AND c.conversation_id = $3`),
      values: [scope.user_id, scope.organization_id, id],
    };
  }

  /** The rows of `ownedWithFileStatement`: the conversation and its attached file, or null when not found. */
  toOwnedWithFile(rows: unknown[]): { conversation: Conversation; file: ConversationFile | null } | null {
    const row = rows[0] as (Conversation & OwnedFileColumns) | undefined;
    if (!row) return null;
    const { f_file_id, f_extracted_text, f_createdAt, ...conversation } = row;
    const file =
      f_file_id === null
        ? null
        : Object.assign(new ConversationFile(), {
            conversation_id: conversation.conversation_id,
            file_id: f_file_id,
            extracted_text: f_extracted_text,
            createdAt: f_createdAt,
          });
    return { conversation: Object.assign(new Conversation(), conversation), file };
  }

  /** The caller's thread with an avatar in the scope, if it has one. */
  findThread(scope: OwnerScope, avatarId: number): Promise<Conversation | null> {
    return whereOwned(this.conversations.createQueryBuilder('c'), scope, 'c')
      .andWhere('c.thread_avatar_id = :avatarId', { avatarId })
      .getOne();
  }

  /** Makes the caller's thread with an avatar unless a concurrent request just made it (one per scope). */
  async insertThread(values: NewConversation & { thread_avatar_id: number }): Promise<void> {
    await this.conversations.createQueryBuilder().insert().values(values).orIgnore().execute();
  }

  /** Ids among `ids` that are the caller's in the scope. */
  async ownedIds(scope: OwnerScope, ids: number[], m?: EntityManager): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await whereOwned(this.repo(m).createQueryBuilder('c'), scope, 'c')
      .select('c.conversation_id', 'conversation_id')
      .andWhere('c.conversation_id IN (:...ids)', { ids })
      .getRawMany<{ conversation_id: number }>();
    return rows.map((r) => r.conversation_id);
  }

  /**
   * The scope's conversation ids as a subquery with its parameters, for the messages module's lists to filter
   * by in the database (a user may have far too many conversations to pass their ids).
   */
  scopeSubquery(scope: OwnerScope): { sql: string; parameters: ObjectLiteral } {
    const qb = whereOwned(this.conversations.createQueryBuilder('c'), scope, 'c').select('c.conversation_id');
    return { sql: qb.getQuery(), parameters: qb.getParameters() };
  }

  async insert(values: NewConversation, tags: string[], m: EntityManager): Promise<Conversation> {
    const repo = this.repo(m);
    const saved = await repo.save(repo.create(values));
    await this.writeTags(m, saved.conversation_id, tags);
    return saved;
  }

  /** Changes the caller's conversation (and "updatedAt"); null when it is not theirs in the scope. */
  async update(
    scope: OwnerScope,
    id: number,
    changes: ConversationChanges,
    tags: string[] | undefined,
    m: EntityManager,
  ): Promise<Conversation | null> {
    const result = await whereOwned(
      this.repo(m).createQueryBuilder().update(Conversation).set(changes),
      scope,
    )
      .andWhere('conversation_id = :id', { id })
      .returning('*')
      .execute();
    const row = (result.raw as Conversation[])[0];
    if (!row) return null;
    if (tags) await this.writeTags(m, id, tags, true);
    return row;
  }

  /** "Last Used" on the conversation list sorts by updatedAt. */
  async touch(id: number, m?: EntityManager): Promise<void> {
    await this.repo(m).query(this.touchStatement('$1'), [id]);
  }

  /**
   * The statement that marks a conversation as just used, for another module's statement to run as one of its
   * parts (a message's exchange is saved with it, one round trip less before its first token); `idParam` is
   * where that statement holds the conversation's id.
   */
  touchStatement(idParam: string): string {
    return `UPDATE conversations SET "updatedAt" = now() WHERE conversation_id = ${idParam}`;
  }

  /** Deletes the caller's conversations among `ids`; answers the deleted ones with their attached file ids. */
  async deleteOwned(
    scope: OwnerScope,
    ids: number[],
    m: EntityManager,
  ): Promise<{ conversation_id: number; file_id: number | null }[]> {
    const owned = await this.ownedIds(scope, ids, m);
    if (!owned.length) return [];
    const files = await m.getRepository(ConversationFile).find({ where: { conversation_id: In(owned) } });
    await m.getRepository(Conversation).delete({ conversation_id: In(owned) });
    return owned.map((conversation_id) => ({
      conversation_id,
      file_id: files.find((f) => f.conversation_id === conversation_id)?.file_id ?? null,
    }));
  }

  filesOf(ids: number[]): Promise<ConversationFile[]> {
    return ids.length ? this.files.find({ where: { conversation_id: In(ids) } }) : Promise.resolve([]);
  }

  fileOf(id: number, m?: EntityManager): Promise<ConversationFile | null> {
    return (m ? m.getRepository(ConversationFile) : this.files).findOne({ where: { conversation_id: id } });
  }

  /** Attaches (or replaces) the conversation's file. */
  async upsertFile(m: EntityManager, id: number, fileId: number, text: string | null): Promise<void> {
    await m
      .getRepository(ConversationFile)
      .createQueryBuilder()
      .insert()
      .values({ conversation_id: id, file_id: fileId, extracted_text: text })
      .orUpdate(['file_id', 'extracted_text', 'createdAt'], ['conversation_id'])
      .execute();
  }

  /** Detaches the file; answers its id, or null when none was attached. */
  async deleteFile(id: number): Promise<number | null> {
    const result = await this.files
      .createQueryBuilder()
      .delete()
      .where('conversation_id = :id', { id })
      .returning('file_id')
      .execute();
    return (result.raw as { file_id: number }[])[0]?.file_id ?? null;
  }

  /** Mirrors the comma string into conversation_tags, in the same transaction as the conversation's save. */
  private async writeTags(m: EntityManager, id: number, tags: string[], replace = false): Promise<void> {
    const repo = m.getRepository(ConversationTag);
    if (replace) await repo.delete({ conversation_id: id });
    if (tags.length) await repo.insert(tags.map((tag) => ({ conversation_id: id, tag })));
  }
}
