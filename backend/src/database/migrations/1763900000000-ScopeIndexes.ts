import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents and user workflows are scoped like conversations (ownerScope: COALESCE(organization_id, 0)), so
 * their list indexes take the same form and the list's order, and a page is read in index order.
 */
export class ScopeIndexes1763900000000 implements MigrationInterface {
  name = 'ScopeIndexes1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS documents_scope`);
    await q.query(
      `CREATE INDEX documents_scope ON documents
         (user_id, (COALESCE(organization_id, 0)), "updatedAt" DESC, document_id DESC)`,
    );
    await q.query(`DROP INDEX IF EXISTS user_workflows_scope`);
    await q.query(
      `CREATE INDEX user_workflows_scope ON user_workflows
         (user_id, (COALESCE(organization_id, 0)), "createdAt" DESC, user_workflow_id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS documents_scope`);
    await q.query(`CREATE INDEX documents_scope ON documents (user_id, organization_id, "updatedAt")`);
    await q.query(`DROP INDEX IF EXISTS user_workflows_scope`);
    await q.query(
      `CREATE INDEX user_workflows_scope ON user_workflows (user_id, organization_id, "createdAt")`,
    );
  }
}
