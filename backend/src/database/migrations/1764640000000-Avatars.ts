import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Avatars (an instruction text plus knowledge files), their files, and the files' passages (chunks) indexed for
 * full-text search (a generated tsvector with a GIN index) and, when the provider offers an embeddings model,
 * embedded (a float4[] column, compared by cosine on the full-text candidates). A user's chat with an avatar is
 * a conversation marked with `thread_avatar_id` (kept out of the conversation list); answers keep the passages
 * they were given as `citations`.
 */
// An editable file's text lives in avatar_files.content (edited in place); an uploaded file's bytes stay in files.
export class Avatars1764640000000 implements MigrationInterface {
  name = 'Avatars1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE avatars (
        avatar_id serial PRIMARY KEY,
        assistant_id varchar(40) NOT NULL UNIQUE,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        description text NOT NULL DEFAULT '',
        context text NOT NULL DEFAULT '',
        public boolean NOT NULL DEFAULT false,
        super_fetch_assistant boolean NOT NULL DEFAULT false,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX avatars_owner_scope ON avatars (user_id, (COALESCE(organization_id, 0)), "createdAt" DESC)`,
    );
    await q.query(
      `CREATE INDEX avatars_organization ON avatars (organization_id) WHERE organization_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX avatars_public ON avatars ("createdAt" DESC) WHERE public`);
    await q.query(`
      CREATE TABLE avatar_files (
        avatar_file_id serial PRIMARY KEY,
        avatar_id int NOT NULL REFERENCES avatars(avatar_id) ON DELETE CASCADE,
        file_id int REFERENCES files(file_id) ON DELETE SET NULL,
        name varchar(255) NOT NULL,
        type varchar(120) NOT NULL,
        editable boolean NOT NULL DEFAULT false,
        content text,
        index_state varchar(20) NOT NULL DEFAULT 'pending',
        index_error text,
        chunks int NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX avatar_files_avatar ON avatar_files (avatar_id, avatar_file_id)`);
    await q.query(`
      CREATE TABLE avatar_chunks (
        chunk_id bigserial PRIMARY KEY,
        avatar_id int NOT NULL REFERENCES avatars(avatar_id) ON DELETE CASCADE,
        avatar_file_id int NOT NULL REFERENCES avatar_files(avatar_file_id) ON DELETE CASCADE,
        ordinal int NOT NULL,
        content text NOT NULL,
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        embedding float4[]
      )`);
    await q.query(`CREATE INDEX avatar_chunks_tsv ON avatar_chunks USING gin (tsv)`);
    await q.query(`CREATE INDEX avatar_chunks_file ON avatar_chunks (avatar_file_id, ordinal)`);
    await q.query(`CREATE INDEX avatar_chunks_avatar ON avatar_chunks (avatar_id)`);
    await q.query(`ALTER TABLE messages ADD COLUMN citations jsonb`);
    await q.query(
      `ALTER TABLE conversations ADD COLUMN thread_avatar_id int REFERENCES avatars(avatar_id) ON DELETE CASCADE`,
    );
    await q.query(
      `CREATE UNIQUE INDEX conversations_avatar_thread ON conversations
         (user_id, thread_avatar_id, (COALESCE(organization_id, 0))) WHERE thread_avatar_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS conversations_avatar_thread`);
    await q.query(`ALTER TABLE conversations DROP COLUMN IF EXISTS thread_avatar_id`);
    await q.query(`ALTER TABLE messages DROP COLUMN IF EXISTS citations`);
    await q.query(`DROP TABLE IF EXISTS avatar_chunks`);
    await q.query(`DROP TABLE IF EXISTS avatar_files`);
    await q.query(`DROP TABLE IF EXISTS avatars`);
  }
}
