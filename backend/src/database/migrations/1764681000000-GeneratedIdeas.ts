import { MigrationInterface, QueryRunner } from 'typeorm';

/** The history of generated topic and hashtag ideas, per user and scope. */
export class GeneratedIdeas1764681000000 implements MigrationInterface {
  name = 'GeneratedIdeas1764681000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE generated_ideas (
        idea_id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id integer REFERENCES organizations(organization_id) ON DELETE CASCADE,
        kind varchar(16) NOT NULL CHECK (kind IN ('topics', 'hashtags')),
        input jsonb NOT NULL,
        items text[] NOT NULL DEFAULT '{}',
        content text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX generated_ideas_scope ON generated_ideas (user_id, (COALESCE(organization_id, 0)), kind, "createdAt" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS generated_ideas`);
  }
}
