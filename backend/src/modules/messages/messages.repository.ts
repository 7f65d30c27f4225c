import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { prepared } from '../../database/prepared-statements';
import { builtRead, type StatementRead } from '../../database/unit-of-work';
import { Brackets, EntityManager, In, ObjectLiteral, Repository } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import type { MessageCitationDto, MessageDto, MessageSourceDto } from './dto/message.dto';
import { Message } from './message.entity';

/** The columns the API shows (everything but the model-only prompt and the lease). */
const VISIBLE: (keyof MessageDto)[] = [
  'message_id',
  'conversation_id',
  'user_id',
  'role',
  'content',
  'finish_reason',
  'favorite',
  'user_message_id',
  'message_type_id',
  'model',
  'words',
  'sources',
  'citations',
  'status',
  'interrupted_reason',
  'partial_content',
  'createdAt',
  'updatedAt',
];

/** A lease from the database's clock (the sweep compares with it), `leaseSecs` bound as a parameter. */
const LEASE_UNTIL = () => 'now() + make_interval(secs => :leaseSecs)';
const NOW = () => 'clock_timestamp()';

export interface NewMessage {
  conversation_id: number;
  user_id: number;
  content: string;
  prompt: string | null;
  message_type_id: number | null;
  model: string | null;
}

/** The ids an exchange's two messages are saved under: the user's message, then the answer. */
export interface ExchangeIds {
  asked: number;
  answer: number;
}

export interface CompletedAnswer {
  content: string;
  finish_reason: string | null;
  words: number;
  model: string | null;
  sources: MessageSourceDto[] | null;
  /** The avatar's passages the answer was given. */
  citations: MessageCitationDto[] | null;
  /** The answer no longer points at its user message (deleted with it). */
  unlinkUserMessage: boolean;
}

/** A message as the model sees it: its role and its text (the prompt when there is one). */
export interface HistoryRow {
  role: 'user' | 'assistant';
  content: string;
}

/** A scope's conversation ids as a subquery (from the conversations module) and its parameters. */
export interface ConversationScope {
  sql: string;
  parameters: ObjectLiteral;
}

/** The messages table: the only code that reads or writes it. */
@Injectable()
export class MessagesRepository {
  constructor(@InjectRepository(Message) private readonly messages: Repository<Message>) {}

  private repo(m?: EntityManager): Repository<Message> {
    return m ? m.getRepository(Message) : this.messages;
  }

  /**
   * Two new message ids, for an exchange (`exchangeRead`): read with the admission's other reads, so the exchange
   * and the reservation that names its answer can be written together with the commit.
   */
  newExchangeIdsRead(): StatementRead<ExchangeIds> {
    return {
      statement: {
        sql: prepared(`SELECT nextval(pg_get_serial_sequence('messages', 'message_id'))::int AS id
                         FROM generate_series(1, 2) ORDER BY 1`),
      },
      read: (rows) => {
        const [asked, answer] = (rows as { id: number }[]).map((r) => r.id);
        return { asked, answer };
      },
    };
  }

  /**
   * Saves the user's message and the pending answer (status generating, leased for `leaseSecs`) under the ids
   * given, and runs `alongside` (another module's statement on the conversation, given where it finds the
   * conversation's id): a statement a transaction sends with others (UnitOfWork.runBatched).
   */
  exchangeRead(
    ids: ExchangeIds,
    message: NewMessage,
    leaseSecs: number,
    alongside: (conversationIdParam: string) => string,
  ): StatementRead<{ user_message: MessageDto; message: MessageDto }> {
    // Hand-written: both rows and the statement alongside in one statement, on the way to an answer's first token.
    const columns = VISIBLE.map((c) => `"${c}"`).join(', ');
    return {
      statement: {
        sql: prepared(`WITH asked AS (
         INSERT INTO messages (message_id, conversation_id, user_id, role, content, prompt, message_type_id, model)
         VALUES ($8, $1, $2, 'user', $3, $4, $5, $6)
         RETURNING *
       ), pending AS (
         INSERT INTO messages (message_id, conversation_id, user_id, role, content, user_message_id,
                               message_type_id, model, status, lease_until)
         VALUES ($9, $1, $2, 'assistant', NULL, $8, $5, $6, 'generating', now() + make_interval(secs => $7))
         RETURNING *
       ), alongside AS (
         ${alongside('$1')}
       )
       SELECT ${columns}, 0 AS position FROM asked
       UNION ALL
       SELECT ${columns}, 1 AS position FROM pending
       ORDER BY position`),
        values: [
          message.conversation_id,
          message.user_id,
          message.content,
          message.prompt,
          message.message_type_id,
          message.model,
          leaseSecs,
          ids.asked,
          ids.answer,
        ],
      },
      read: (rows) => {
        const [user_message, pending] = (rows as (MessageDto & { position: number })[]).map(
          ({ position: _position, ...row }) => row as MessageDto,
        );
        return { user_message, message: pending };
      },
    };
  }

  /** An interrupted answer back to generating (content cleared, leased); null when it is not interrupted. */
  async restart(id: number, leaseSecs: number): Promise<MessageDto | null> {
    const result = await this.messages
      .createQueryBuilder()
      .update()
      .set({
        status: 'generating',
        content: null,
        partial_content: null,
        interrupted_reason: null,
        finish_reason: null,
        words: 0,
        lease_until: LEASE_UNTIL,
        updatedAt: NOW,
      })
      .where('message_id = :id AND status = :interrupted', { id, interrupted: 'interrupted' })
      .setParameter('leaseSecs', leaseSecs)
      .returning(VISIBLE)
      .execute();
    return (result.raw as MessageDto[])[0] ?? null;
  }

  /** One page of a conversation, counted from the newest, read oldest first. */
  async conversationPage(conversationId: number, page: Page): Promise<{ rows: Message[]; total: number }> {
    const [newestFirst, total] = await Promise.all([
      this.messages
        .createQueryBuilder('m')
        .where('m.conversation_id = :conversationId', { conversationId })
        .orderBy('m.createdAt', 'DESC')
        .addOrderBy('m.message_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      this.messages.count({ where: { conversation_id: conversationId } }),
    ]);
    return { rows: newestFirst.reverse(), total };
  }

  /** The user's messages in the scope's conversations, newest first. */
  async ownPage(
    userId: number,
    scope: ConversationScope,
    filter: { favorite?: boolean; message_type_id?: number },
    page: Page,
  ): Promise<{ rows: Message[]; total: number }> {
    const qb = this.messages
      .createQueryBuilder('m')
      .where('m.user_id = :userId', { userId })
      .andWhere(`m.conversation_id IN (${scope.sql})`, scope.parameters);
    if (filter.favorite !== undefined) qb.andWhere('m.favorite = :favorite', { favorite: filter.favorite });
    if (filter.message_type_id) qb.andWhere('m.message_type_id = :type', { type: filter.message_type_id });
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .orderBy('m.createdAt', 'DESC')
        .addOrderBy('m.message_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      qb.getCount(),
    ]);
    return { rows, total };
  }

  /** The user's message, in one of the scope's conversations. */
  findOwn(userId: number, id: number, scope: ConversationScope): Promise<Message | null> {
    return this.messages
      .createQueryBuilder('m')
      .where('m.message_id = :id AND m.user_id = :userId', { id, userId })
      .andWhere(`m.conversation_id IN (${scope.sql})`, scope.parameters)
      .getOne();
  }

  findOfUser(userId: number, id: number): Promise<Message | null> {
    return this.messages.findOne({ where: { message_id: id, user_id: userId } });
  }

  findComplete(id: number): Promise<Message | null> {
    return this.messages.findOne({ where: { message_id: id, status: 'complete' } });
  }

  async update(id: number, changes: { content?: string; favorite?: boolean }): Promise<MessageDto | null> {
    const result = await this.messages
      .createQueryBuilder()
      .update()
      .set({ ...changes, updatedAt: NOW })
      .where('message_id = :id', { id })
      .returning(VISIBLE)
      .execute();
    return (result.raw as MessageDto[])[0] ?? null;
  }

  async delete(ids: number[], m?: EntityManager): Promise<void> {
    if (ids.length) await this.repo(m).delete({ message_id: In(ids) });
  }

  /** Removes an answer only while it is still pending. */
  async deletePending(id: number): Promise<void> {
    await this.messages.delete({ message_id: id, status: 'generating' });
  }

  async deleteConversationMessages(conversationId: number, m?: EntityManager): Promise<void> {
    await this.repo(m).delete({ conversation_id: conversationId });
  }

  /** Saves the text so far and renews the lease; false when the answer no longer generates. */
  async checkpoint(id: number, text: string, leaseSecs: number): Promise<boolean> {
    const result = await this.messages
      .createQueryBuilder()
      .update()
      .set({ partial_content: text, lease_until: LEASE_UNTIL })
      .where('message_id = :id AND status = :generating', { id, generating: 'generating' })
      .setParameter('leaseSecs', leaseSecs)
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Ends a generating answer as interrupted with `text`, unpaid; false when it was no longer generating. */
  async interrupt(id: number, text: string, reason: string): Promise<boolean> {
    const result = await this.messages
      .createQueryBuilder()
      .update()
      .set({
        status: 'interrupted',
        content: text,
        interrupted_reason: reason,
        partial_content: null,
        lease_until: null,
        words: 0,
        updatedAt: NOW,
      })
      .where('message_id = :id AND status = :generating', { id, generating: 'generating' })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * The newest complete messages of a conversation before `beforeId` and from `fromId` on, newest first, with
   * the text the model gets (the prompt when there is one).
   */
  async history(
    conversationId: number,
    beforeId: number,
    fromId: number,
    limit: number,
  ): Promise<HistoryRow[]> {
    return this.historyQuery(conversationId, limit)
      .andWhere('m.message_id < :beforeId AND m.message_id >= :fromId', { beforeId, fromId })
      .getRawMany();
  }

  /**
   * The `limit` newest complete messages of a conversation, newest first, as `history` reads them: a read for
   * another statement's round trip (a new message's, before it is saved, so it is not among them).
   */
  historyRead(conversationId: number, limit: number): StatementRead<HistoryRow[]> {
    const read = builtRead(this.historyQuery(conversationId, limit), (rows: HistoryRow[]) => rows);
    // Two texts in all (with and without history): prepared once per connection, run by name.
    prepared(read.statement.sql);
    return read;
  }

  private historyQuery(conversationId: number, limit: number) {
    return this.messages
      .createQueryBuilder('m')
      .select('m.role', 'role')
      .addSelect('COALESCE(m.prompt, m.content)', 'content')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('m.content IS NOT NULL AND m.status = :complete', { complete: 'complete' })
      .orderBy('m.createdAt', 'DESC')
      .addOrderBy('m.message_id', 'DESC')
      .limit(limit);
  }

  /** The text (or a template's prompt) of a message, for the avatar's retrieval when its answer is retried. */
  async promptOf(id: number): Promise<string> {
    const row = await this.messages.findOne({ where: { message_id: id }, select: ['content', 'prompt'] });
    return row?.prompt ?? row?.content ?? '';
  }

  /**
   * Writes a generating answer as complete, as a statement a transaction sends with others
   * (UnitOfWork.runBatched); it reads null when the answer is no longer generating (deleted meanwhile).
   */
  completeRead(id: number, answer: CompletedAnswer): StatementRead<MessageDto | null> {
    // Hand-written: every answer is saved here, where the query builder cost more CPU than the statement. The
    // update is wrapped in a SELECT so the driver answers its rows alone, as for any read.
    const columns = VISIBLE.map((c) => `"${c}"`).join(', ');
    return {
      statement: {
        sql: prepared(`WITH saved AS (
         UPDATE messages
            SET content = $2, finish_reason = $3, words = $4, model = $5, sources = $6, citations = $7,
                status = 'complete', partial_content = NULL, lease_until = NULL, interrupted_reason = NULL,
                "updatedAt" = clock_timestamp(),
                user_message_id = CASE WHEN $8 THEN NULL ELSE user_message_id END
          WHERE message_id = $1 AND status = 'generating'
          RETURNING ${columns}
       )
       SELECT * FROM saved`),
        values: [
          id,
          answer.content,
          answer.finish_reason,
          answer.words,
          answer.model,
          answer.sources === null ? null : JSON.stringify(answer.sources),
          answer.citations === null ? null : JSON.stringify(answer.citations),
          answer.unlinkUserMessage,
        ],
      },
      read: (rows) => (rows as MessageDto[])[0] ?? null,
    };
  }

  /**
   * Ends the generating answers whose lease lapsed, except those `held` (generation ids), as interrupted with
   * the text last saved, unpaid; answers them.
   */
  async interruptLapsed(
    reason: string,
    held: string[],
  ): Promise<{ message_id: number; conversation_id: number; user_id: number; content: string }[]> {
    const qb = this.messages
      .createQueryBuilder()
      .update()
      .set({
        status: 'interrupted',
        content: () => `COALESCE(partial_content, '')`,
        interrupted_reason: reason,
        partial_content: null,
        lease_until: null,
        words: 0,
        updatedAt: NOW,
      })
      .where('status = :generating', { generating: 'generating' })
      .andWhere(new Brackets((b) => b.where('lease_until IS NULL').orWhere('lease_until < now()')));
    if (held.length) qb.andWhere(`NOT (('message:' || message_id) IN (:...held))`, { held });
    const result = await qb.returning(['message_id', 'conversation_id', 'user_id', 'content']).execute();
    return result.raw as { message_id: number; conversation_id: number; user_id: number; content: string }[];
  }
}
