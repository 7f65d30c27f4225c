import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversations. `tags` keeps the spec's comma-separated form for reading back as it was typed; the
 * conversation_tags rows mirror it (rewritten on every save) so that tag counts and tag filters use indexes
 * instead of splitting strings.
 */
export class Conversations1763800000000 implements MigrationInterface {
  name = 'Conversations1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE conversations (
        conversation_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        model varchar(100),
        tags text NOT NULL DEFAULT '',
        archived boolean NOT NULL DEFAULT false,
        avatar_id int,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // Every list is one user's conversations in one scope, often filtered by archived and sorted by last use.
    await q.query(
      `CREATE INDEX conversations_scope ON conversations (user_id, organization_id, archived, "updatedAt")`,
    );
    // Deleting an organization cascades here; without this index that delete scans the whole table.
    await q.query(
      `CREATE INDEX conversations_org ON conversations (organization_id) WHERE organization_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE conversation_tags (
        conversation_id int NOT NULL REFERENCES conversations(conversation_id) ON DELETE CASCADE,
        tag varchar(100) NOT NULL,
        PRIMARY KEY (conversation_id, tag)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS conversation_tags`);
    await q.query(`DROP TABLE IF EXISTS conversations`);
  }
}
