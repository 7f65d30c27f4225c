import { MigrationInterface, QueryRunner } from 'typeorm';
import { extensionSchema } from './extensions';

/**
 * Trigram indexes for the back office's customer search (`lower(name) LIKE '%text%'` and its siblings in
 * UsersRepository.searchedPage), so a search reads the matching accounts instead of every account. Skipped where
 * pg_trgm cannot be installed: the search still works, only without them.
 */
export class CustomerSearchTrigrams1795752288428 implements MigrationInterface {
  name = 'CustomerSearchTrigrams1795752288428';

  async up(q: QueryRunner): Promise<void> {
    const schema = await extensionSchema(q, 'pg_trgm');
    if (!schema) return;
    const ops = `"${schema}".gin_trgm_ops`;
    for (const [name, expression] of INDEXES)
      await q.query(`CREATE INDEX ${name} ON users USING gin ((${expression}) ${ops})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await q.query(`DROP INDEX IF EXISTS ${name}`);
  }
}

/** The expressions exactly as the search writes them, or the planner cannot use the index. */
const INDEXES: [string, string][] = [
  ['users_name_trgm', 'lower(name)'],
  ['users_last_name_trgm', 'lower(last_name)'],
  ['users_email_trgm', 'lower(email)'],
  ['users_full_name_trgm', "lower(name || ' ' || last_name)"],
  ['users_phone_trgm', 'phone'],
];
