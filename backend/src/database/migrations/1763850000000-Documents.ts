import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents: a name and a text content of fewer than 65000 characters, owned by a user
 * in a scope (Personal when organization_id is NULL, like conversations).
 */
export class Documents1763850000000 implements MigrationInterface {
  name = 'Documents1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE documents (
        document_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        content text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX documents_scope ON documents (user_id, organization_id, "updatedAt")`);
    await q.query(
      `CREATE INDEX documents_org ON documents (organization_id) WHERE organization_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS documents`);
  }
}
