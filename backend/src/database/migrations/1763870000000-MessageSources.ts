import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The web pages a search found for an answer (`searchOnInternet`), as `[{ title, url }]`, shown under the
 * answer as its sources. NULL when the answer was written without a web search.
 */
export class MessageSources1763870000000 implements MigrationInterface {
  name = 'MessageSources1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN sources jsonb DEFAULT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN IF EXISTS sources`);
  }
}
