import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Starter content: templates and workflows loaded on an empty database carry `starter` so staff can remove all
 * of them at once; `setup_state` remembers what the first run did (loaded, removed) so nothing comes back.
 */
export class StarterContent1795709635733 implements MigrationInterface {
  name = 'StarterContent1795709635733';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE templates ADD COLUMN IF NOT EXISTS starter boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE workflows ADD COLUMN IF NOT EXISTS starter boolean NOT NULL DEFAULT false`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS templates_starter_idx ON templates (template_id) WHERE starter`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS workflows_starter_idx ON workflows (workflow_id) WHERE starter`,
    );
    await q.query(`
      CREATE TABLE IF NOT EXISTS setup_state (
        key varchar(100) PRIMARY KEY,
        value varchar(100) NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS setup_state`);
    await q.query(`DROP INDEX IF EXISTS workflows_starter_idx`);
    await q.query(`DROP INDEX IF EXISTS templates_starter_idx`);
    await q.query(`ALTER TABLE workflows DROP COLUMN IF EXISTS starter`);
    await q.query(`ALTER TABLE templates DROP COLUMN IF EXISTS starter`);
  }
}
