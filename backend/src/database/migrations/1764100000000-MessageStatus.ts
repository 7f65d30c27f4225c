import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An answer's life as a status: 'generating' while an instance produces it, 'complete' once saved, 'interrupted'
 * when it ended without completing (content then holds the text produced so far). The instance generating an
 * answer holds a lease on it (`lease_until`, renewed while it streams, with `partial_content` = the text so far);
 * any instance turns a 'generating' row whose lease lapsed into 'interrupted', so no answer stays pending forever.
 */
export class MessageStatus1764100000000 implements MigrationInterface {
  name = 'MessageStatus1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE messages
        ADD COLUMN status varchar(20) NOT NULL DEFAULT 'complete'
          CHECK (status IN ('generating', 'complete', 'interrupted')),
        ADD COLUMN interrupted_reason text,
        ADD COLUMN partial_content text,
        ADD COLUMN lease_until timestamptz`);
    // Answers pending before this migration have no lease: the first sweep interrupts them.
    await q.query(`UPDATE messages SET status = 'generating' WHERE content IS NULL`);
    // The sweep looks only at generating rows.
    await q.query(`CREATE INDEX messages_generating ON messages (lease_until) WHERE status = 'generating'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS messages_generating`);
    await q.query(`UPDATE messages SET content = NULL WHERE status = 'interrupted' AND content = ''`);
    await q.query(`
      ALTER TABLE messages DROP COLUMN IF EXISTS status, DROP COLUMN IF EXISTS interrupted_reason,
        DROP COLUMN IF EXISTS partial_content, DROP COLUMN IF EXISTS lease_until`);
  }
}
