import { MigrationInterface, QueryRunner } from 'typeorm';
import { extensionSchema } from './extensions';

/**
 * A trigram index on conversation names, so a search (`name ILIKE '%text%'`) with few matches reads the matches
 * instead of every conversation of the user (bench/conversations.mjs, 100,000 conversations: a rare search's page
 * 63 ms → 1.5 ms and its count 45 ms → 1.2 ms of database time).
 *
 * pg_trgm ships with PostgreSQL (and PGlite) and is a trusted extension. Where it cannot be installed the search
 * still works, only without the index, so that case is skipped rather than stopping the start. The operator
 * class is named with the extension's schema because the app's search_path may not include it.
 */
export class ConversationNameSearch1763890000000 implements MigrationInterface {
  name = 'ConversationNameSearch1763890000000';

  async up(q: QueryRunner): Promise<void> {
    const schema = await extensionSchema(q, 'pg_trgm');
    if (!schema) return;
    await q.query(
      `CREATE INDEX conversations_name_trgm ON conversations USING gin (name "${schema}".gin_trgm_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS conversations_name_trgm`);
  }
}
