import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Super Fetch history: prompts and outputs per user, assistant and scope. Rows hang on their avatar only
 * (deleted with it, and so with its user or organization): a foreign key to users would take a share lock on the
 * user's row that deadlocks with the word charge's row lock when several outputs of one request finish together.
 */
export class SuperFetchMessages1795746000001 implements MigrationInterface {
  name = 'SuperFetchMessages1795746000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE super_fetch_messages (
        message_id serial PRIMARY KEY,
        user_id integer NOT NULL,
        organization_id integer,
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
