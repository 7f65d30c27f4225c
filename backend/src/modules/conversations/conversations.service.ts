import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { ORDER_BY, normalizeModel, normalizeTags } from './conversation-rules';
import type {
  ConversationDto,
  ConversationListQuery,
  ConversationPageResponse,
  ConversationTagsQuery,
  ConversationTagsResponse,
  CreateConversationBody,
  UpdateConversationBody,
} from './dto/conversation.dto';

const PAGE_SIZE = 20;
const COLUMNS = `c.conversation_id, c.user_id, c.organization_id, c.name, c.model, c.tags, c.archived,
  c.avatar_id, c."createdAt", c."updatedAt"`;

const conversationNotFound = () => notFound('Conversation', 'conversation_not_found');

/**
 * The caller's conversations in the current scope, as SQL with its parameters from `$first` on. Personal is
 * `organization_id IS NULL`; an organization scope shows only what the caller created there. The two forms are
 * written out (not `IS NOT DISTINCT FROM`) so that the (user_id, organization_id, ...) index is used.
 */
export function scopeWhere(me: Principal, first: number): { sql: string; params: unknown[] } {
  const org = me.org?.organization_id ?? null;
  return org === null
    ? { sql: `c.user_id = $${first} AND c.organization_id IS NULL`, params: [me.user_id] }
    : {
        sql: `c.user_id = $${first} AND c.organization_id = $${first + 1}`,
        params: [me.user_id, org],
      };
}

/**
 * Conversations belong to their creator and to the scope they were created in (fixed then). Every read and
 * change filters by both, so another user's conversation, or the caller's own seen from another scope, is 404.
 */
@Injectable()
export class ConversationsService {
  constructor(private readonly db: DataSource) {}

  async list(me: Principal, query: ConversationListQuery): Promise<ConversationPageResponse> {
    const { page, limit, skip } = toPage(query, PAGE_SIZE);
    const scope = scopeWhere(me, 1);
    const where = [scope.sql];
    const params = [...scope.params];
    const text = query.query?.trim();
    if (text) {
      params.push(likePattern(text));
      where.push(`c.name ILIKE $${params.length}`);
    }
    if (query.archived) {
      params.push(query.archived === 'true');
      where.push(`c.archived = $${params.length}`);
    }
    // A conversation must carry every tag asked for; each check is a primary-key lookup in conversation_tags.
    for (const tag of normalizeTags(query.tags)) {
      params.push(tag);
      where.push(
        `EXISTS (SELECT 1 FROM conversation_tags ct WHERE ct.conversation_id = c.conversation_id AND ct.tag = $${params.length})`,
      );
    }
    const whereSql = where.join(' AND ');
    const orderBy = ORDER_BY[query.sortBy ?? 'createdAt_desc'];
    const [conversations, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT ${COLUMNS} FROM conversations c WHERE ${whereSql} ORDER BY ${orderBy}
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, skip],
      ) as Promise<ConversationDto[]>,
      this.db.query(
        `SELECT count(*)::int AS total FROM conversations c WHERE ${whereSql}`,
        params,
      ) as Promise<{ total: number }[]>,
    ]);
    return { conversations, total, page, limit };
  }

  async tags(me: Principal, query: ConversationTagsQuery): Promise<ConversationTagsResponse> {
    const scope = scopeWhere(me, 1);
    const params = [...scope.params];
    let archived = '';
    if (query.archived) {
      params.push(query.archived === 'true');
      archived = `AND c.archived = $${params.length}`;
    }
    const tags = (await this.db.query(
      `SELECT ct.tag, count(*)::int AS conversations
         FROM conversations c JOIN conversation_tags ct ON ct.conversation_id = c.conversation_id
        WHERE ${scope.sql} ${archived}
        GROUP BY ct.tag ORDER BY lower(ct.tag), ct.tag`,
      params,
    )) as { tag: string; conversations: number }[];
    return { tags, total: tags.length };
  }

  async get(me: Principal, conversationId: number): Promise<ConversationDto> {
    const scope = scopeWhere(me, 2);
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM conversations c WHERE c.conversation_id = $1 AND ${scope.sql}`,
      [conversationId, ...scope.params],
    )) as ConversationDto[];
    if (!row) throw conversationNotFound();
    return row;
  }

  async create(me: Principal, body: CreateConversationBody): Promise<ConversationDto> {
    const tags = normalizeTags(body.tags);
    return this.db.transaction(async (m) => {
      const [row] = (await m.query(
        `INSERT INTO conversations (user_id, organization_id, name, model, tags, avatar_id)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [
          me.user_id,
          me.org?.organization_id ?? null,
          body.name,
          normalizeModel(body.model) ?? null,
          tags.join(','),
          body.avatar_id ?? null,
        ],
      )) as ConversationDto[];
      await this.writeTags(m, row.conversation_id, tags);
      return row;
    });
  }

  async update(me: Principal, body: UpdateConversationBody): Promise<ConversationDto> {
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (body.name !== undefined) set('name', body.name);
    const model = normalizeModel(body.model);
    if (model !== undefined) set('model', model);
    // undefined leaves the tags alone; null or '' clears them.
    const tags = body.tags === undefined ? undefined : normalizeTags(body.tags);
    if (tags) set('tags', tags.join(','));
    if (body.archived !== undefined) set('archived', body.archived);
    sets.push(`"updatedAt" = now()`);
    const scope = scopeWhere(me, params.length + 2);
    return this.db.transaction(async (m) => {
      const [rows] = (await m.query(
        `UPDATE conversations c SET ${sets.join(', ')}
          WHERE c.conversation_id = $${params.length + 1} AND ${scope.sql} RETURNING ${COLUMNS}`,
        [...params, body.conversation_id, ...scope.params],
      )) as [ConversationDto[], number];
      const row = rows[0];
      if (!row) throw conversationNotFound();
      if (tags) await this.writeTags(m, row.conversation_id, tags, true);
      return row;
    });
  }

  async remove(me: Principal, conversationId: number): Promise<void> {
    const scope = scopeWhere(me, 2);
    const [, affected] = (await this.db.query(
      `DELETE FROM conversations c WHERE c.conversation_id = $1 AND ${scope.sql}`,
      [conversationId, ...scope.params],
    )) as [unknown[], number];
    if (!affected) throw conversationNotFound();
  }

  /** Mirrors the comma string into conversation_tags, in the same transaction as the conversation's save. */
  private async writeTags(m: EntityManager, conversationId: number, tags: string[], replace = false) {
    if (replace) await m.query(`DELETE FROM conversation_tags WHERE conversation_id = $1`, [conversationId]);
    if (tags.length)
      await m.query(`INSERT INTO conversation_tags (conversation_id, tag) SELECT $1, unnest($2::varchar[])`, [
        conversationId,
        tags,
      ]);
  }
}
