import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages of a conversation. `content` NULL means the assistant's answer is still being generated; the row is
 * written once when the stream ends, not per streamed token. "createdAt" defaults to clock_timestamp() so that a user
 * message and its pending answer, inserted in one transaction, still sort in the order they were written.
 */
export class Messages1763810000000 implements MigrationInterface {
  name = 'Messages1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE messages (
        message_id serial PRIMARY KEY,
        conversation_id int NOT NULL REFERENCES conversations(conversation_id) ON DELETE CASCADE,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        role varchar(20) NOT NULL CHECK (role IN ('user', 'assistant')),
        content text,
        finish_reason varchar(50),
        favorite boolean NOT NULL DEFAULT false,
        prompt text,
        user_message_id int,
        message_type_id int,
        model varchar(100),
        words int NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT clock_timestamp(),
        "updatedAt" timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // Every conversation screen pages its messages by creation time.
    await q.query(`CREATE INDEX messages_conversation ON messages (conversation_id, "createdAt")`);
    // The own-messages list (favorites, by type) and user deletion's cascade.
    await q.query(`CREATE INDEX messages_user ON messages (user_id, "createdAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS messages`);
  }
}
