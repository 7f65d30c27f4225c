import { MigrationInterface, QueryRunner } from 'typeorm';

/** The Super Fetch history: prompts and outputs per user, assistant and scope. */
export class SuperFetchMessages1795709700000 implements MigrationInterface {
  name = 'SuperFetchMessages1795709700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE super_fetch_messages (
        message_id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id integer REFERENCES organizations(organization_id) ON DELETE CASCADE,
        avatar_id integer NOT NULL REFERENCES avatars(avatar_id) ON DELETE CASCADE,
        assistant_id varchar(64) NOT NULL,
        role varchar(16) NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        request_id uuid NOT NULL,
        liked boolean,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX super_fetch_messages_scope ON super_fetch_messages (user_id, (COALESCE(organization_id, 0)), assistant_id, "createdAt" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS super_fetch_messages`);
  }
}
