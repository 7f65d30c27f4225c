import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workflows (staff-authored chains of templates) and user workflows (a customer's run of one: field values,
 * and per step a conversation holding the generated content).
 *
 * - workflows.tags keeps the spec's comma string; workflow_tags mirrors it for counts and filters, as templates do.
 * - workflow_templates is the ordered list of steps; deleting a template drops it from the workflows using it.
 * - A user workflow keeps running after its workflow is deleted (workflow_id SET NULL), and each step keeps a copy
 *   of its template's prompt (`content`), so regenerating a step still works after the template is edited away or
 *   deleted (template_id SET NULL).
 * - A step lives as long as its conversation (CASCADE): deleting the conversation deletes the step.
 */
export class Workflows1763830000000 implements MigrationInterface {
  name = 'Workflows1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflows (
        workflow_id serial PRIMARY KEY,
        user_id int REFERENCES users(user_id) ON DELETE SET NULL,
        name varchar(255) NOT NULL,
        description text NOT NULL DEFAULT '',
        tags text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX workflows_created ON workflows ("createdAt")`);
    await q.query(`
      CREATE TABLE workflow_templates (
        workflow_id int NOT NULL REFERENCES workflows(workflow_id) ON DELETE CASCADE,
        template_id int NOT NULL REFERENCES templates(template_id) ON DELETE CASCADE,
        "order" int NOT NULL,
        PRIMARY KEY (workflow_id, "order")
      )`);
    // Deleting a template cascades here.
    await q.query(`CREATE INDEX workflow_templates_template ON workflow_templates (template_id)`);
    await q.query(`
      CREATE TABLE workflow_tags (
        workflow_id int NOT NULL REFERENCES workflows(workflow_id) ON DELETE CASCADE,
        tag varchar(100) NOT NULL,
        PRIMARY KEY (workflow_id, tag)
      )`);
    await q.query(`CREATE INDEX workflow_tags_tag ON workflow_tags (tag)`);

    await q.query(`
      CREATE TABLE user_workflows (
        user_workflow_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        workflow_id int REFERENCES workflows(workflow_id) ON DELETE SET NULL,
        name varchar(255) NOT NULL,
        description text NOT NULL DEFAULT '',
        "values" jsonb NOT NULL DEFAULT '{}',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // Every list is one user's user workflows in one scope, newest first (same shape as conversations).
    await q.query(
      `CREATE INDEX user_workflows_scope ON user_workflows (user_id, organization_id, "createdAt")`,
    );
    await q.query(
      `CREATE INDEX user_workflows_org ON user_workflows (organization_id) WHERE organization_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX user_workflows_workflow ON user_workflows (workflow_id) WHERE workflow_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE user_workflow_templates (
        user_workflow_template_id serial PRIMARY KEY,
        user_workflow_id int NOT NULL REFERENCES user_workflows(user_workflow_id) ON DELETE CASCADE,
        template_id int REFERENCES templates(template_id) ON DELETE SET NULL,
        conversation_id int NOT NULL REFERENCES conversations(conversation_id) ON DELETE CASCADE,
        "order" int NOT NULL,
        content text NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'generating', 'done', 'failed')),
        error text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_workflow_id, "order")
      )`);
    await q.query(
      `CREATE UNIQUE INDEX user_workflow_templates_conversation ON user_workflow_templates (conversation_id)`,
    );
    await q.query(
      `CREATE INDEX user_workflow_templates_template ON user_workflow_templates (template_id)
        WHERE template_id IS NOT NULL`,
    );
    // The boot-time sweep of steps a stopped process left unfinished.
    await q.query(
      `CREATE INDEX user_workflow_templates_unfinished ON user_workflow_templates (status)
        WHERE status IN ('pending', 'generating')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS user_workflow_templates`);
    await q.query(`DROP TABLE IF EXISTS user_workflows`);
    await q.query(`DROP TABLE IF EXISTS workflow_tags`);
    await q.query(`DROP TABLE IF EXISTS workflow_templates`);
    await q.query(`DROP TABLE IF EXISTS workflows`);
  }
}
