import { MigrationInterface, QueryRunner } from 'typeorm';
import { extensionSchema } from './extensions';

/**
 * The customer search in all fields reads one trigram index over the name, the last name and the email together
 * (a line break between the full name and the email, so a pattern cannot run from one into the other) instead of
 * two (the full name's and the email's): the common trigrams' long lists are intersected once, and a candidate
 * row is checked against one expression. The email's own index stays for the search in the email field. Skipped
 * where pg_trgm cannot be installed, as the indexes it replaces were.
 */
export class CustomerSearchOneIndex1795780000001 implements MigrationInterface {
  name = 'CustomerSearchOneIndex1795780000001';

  async up(q: QueryRunner): Promise<void> {
    const schema = await extensionSchema(q, 'pg_trgm');
    if (!schema) return;
    await q.query(`DROP INDEX IF EXISTS users_full_name_trgm`);
    await q.query(
      `CREATE INDEX users_search_trgm ON users USING gin
         ((lower(name || ' ' || last_name || E'\\n' || email)) "${schema}".gin_trgm_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const schema = await extensionSchema(q, 'pg_trgm');
    if (!schema) return;
    await q.query(`DROP INDEX IF EXISTS users_search_trgm`);
    await q.query(
      `CREATE INDEX users_full_name_trgm ON users USING gin ((lower(name || ' ' || last_name)) "${schema}".gin_trgm_ops)`,
    );
  }
}
