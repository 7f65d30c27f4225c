import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents get tags, the block editor's JSON (kept beside the Markdown content that search and the size limit
 * read) and a version that refuses a stale save from a second tab.
 */
export class DocumentEditor1764680000000 implements MigrationInterface {
  name = 'DocumentEditor1764680000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ADD COLUMN tags text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE documents ADD COLUMN blocks jsonb`);
    await q.query(`ALTER TABLE documents ADD COLUMN version integer NOT NULL DEFAULT 1`);
    await q.query(`CREATE INDEX documents_tags ON documents USING gin (tags)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS documents_tags`);
    await q.query(`ALTER TABLE documents DROP COLUMN version, DROP COLUMN blocks, DROP COLUMN tags`);
  }
}
