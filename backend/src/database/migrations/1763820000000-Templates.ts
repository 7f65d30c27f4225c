import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Templates. `tags` keeps the spec's comma string as typed; template_tags mirrors it (rewritten on every save)
 * so tag counts and tag filters use indexes. `fields` holds the field settings as JSON, select options in the
 * spec's slash-joined form. A template outlives its author (user_id SET NULL) because public and organization
 * templates are used by others; it goes with its organization.
 */
export class Templates1763820000000 implements MigrationInterface {
  name = 'Templates1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE templates (
        template_id serial PRIMARY KEY,
        user_id int REFERENCES users(user_id) ON DELETE SET NULL,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        description text NOT NULL,
        content text NOT NULL,
        type varchar(100) NOT NULL DEFAULT '',
        tags text NOT NULL DEFAULT '',
        language varchar(2) NOT NULL DEFAULT 'en',
        public boolean NOT NULL DEFAULT false,
        editable boolean NOT NULL DEFAULT false,
        show_prompt boolean NOT NULL DEFAULT true,
        fields jsonb NOT NULL DEFAULT '[]',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // The three ways a template becomes visible: the author's own, the organization's, and public ones.
    await q.query(`CREATE INDEX templates_user ON templates (user_id, organization_id)`);
    await q.query(
      `CREATE INDEX templates_org ON templates (organization_id) WHERE organization_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX templates_public ON templates ("createdAt") WHERE public`);
    await q.query(`
      CREATE TABLE template_tags (
        template_id int NOT NULL REFERENCES templates(template_id) ON DELETE CASCADE,
        tag varchar(100) NOT NULL,
        PRIMARY KEY (template_id, tag)
      )`);
    await q.query(`CREATE INDEX template_tags_tag ON template_tags (tag)`);
    await q.query(`
      CREATE TABLE template_favorites (
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        template_id int NOT NULL REFERENCES templates(template_id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, template_id)
      )`);
    // Deleting a template cascades here; the primary key starts with user_id and cannot serve that delete.
    await q.query(`CREATE INDEX template_favorites_template ON template_favorites (template_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS template_favorites`);
    await q.query(`DROP TABLE IF EXISTS template_tags`);
    await q.query(`DROP TABLE IF EXISTS templates`);
  }
}
