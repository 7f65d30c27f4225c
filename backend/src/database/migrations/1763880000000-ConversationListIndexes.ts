import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One index per conversation-list sort, so a page is read in index order instead of sorting every conversation
 * of the user (bench/conversations.mjs: 100,000 conversations, page query 27 ms → under 1 ms).
 *
 * The scope is indexed as COALESCE(organization_id, 0) and queried the same way (scopeWhere): PostgreSQL uses
 * `organization_id IS NULL` as an index condition but not to order by the columns after it, so with the plain
 * column every list fell back to a sort. 0 is never an organization id (serial ids start at 1).
 */
export class ConversationListIndexes1763880000000 implements MigrationInterface {
  name = 'ConversationListIndexes1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS conversations_scope`);
    const scope = `user_id, (COALESCE(organization_id, 0)), archived`;
    await q.query(
      `CREATE INDEX conversations_by_updated ON conversations (${scope}, "updatedAt" DESC, conversation_id DESC)`,
    );
    await q.query(
      `CREATE INDEX conversations_by_created ON conversations (${scope}, "createdAt" DESC, conversation_id DESC)`,
    );
    await q.query(
      `CREATE INDEX conversations_by_name ON conversations (${scope}, lower(name), conversation_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS conversations_by_name`);
    await q.query(`DROP INDEX IF EXISTS conversations_by_created`);
    await q.query(`DROP INDEX IF EXISTS conversations_by_updated`);
    await q.query(
      `CREATE INDEX conversations_scope ON conversations (user_id, organization_id, archived, "updatedAt")`,
    );
  }
}
