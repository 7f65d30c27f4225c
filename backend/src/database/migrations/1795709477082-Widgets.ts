import { MigrationInterface, QueryRunner } from 'typeorm';

/** Chat widgets, their visitors' conversations and messages. */
export class Widgets1795709477082 implements MigrationInterface {
  name = 'Widgets1795709477082';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE widgets (
        widget_id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id integer REFERENCES organizations(organization_id) ON DELETE CASCADE,
        avatar_id integer NOT NULL REFERENCES avatars(avatar_id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        accent_color varchar(6) NOT NULL,
        image_file_id integer REFERENCES files(file_id) ON DELETE SET NULL,
        allowed_origins text[] NOT NULL DEFAULT '{}',
        messages_per_minute integer NOT NULL,
        words_per_day integer NOT NULL,
        max_concurrent_streams integer NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        public_key varchar(40) NOT NULL UNIQUE,
        conversations_count integer NOT NULL DEFAULT 0,
        messages_count integer NOT NULL DEFAULT 0,
        words_count bigint NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX widgets_owner_scope ON widgets (user_id, (COALESCE(organization_id, 0)), "createdAt" DESC)`,
    );
    await q.query(`
      CREATE TABLE widget_conversations (
        widget_conversation_id serial PRIMARY KEY,
        widget_id integer NOT NULL REFERENCES widgets(widget_id) ON DELETE CASCADE,
        visitor_id uuid NOT NULL,
        origin varchar(255) NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (widget_id, visitor_id)
      )`);
    await q.query(`
      CREATE TABLE widget_messages (
        widget_message_id serial PRIMARY KEY,
        widget_conversation_id integer NOT NULL REFERENCES widget_conversations(widget_conversation_id) ON DELETE CASCADE,
        widget_id integer NOT NULL REFERENCES widgets(widget_id) ON DELETE CASCADE,
        role varchar(16) NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        finish_reason varchar(32),
        words integer NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX widget_messages_conversation ON widget_messages (widget_conversation_id, widget_message_id DESC)`,
    );
    await q.query(`CREATE INDEX widget_messages_day ON widget_messages (widget_id, "createdAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS widget_messages`);
    await q.query(`DROP TABLE IF EXISTS widget_conversations`);
    await q.query(`DROP TABLE IF EXISTS widgets`);
  }
}
