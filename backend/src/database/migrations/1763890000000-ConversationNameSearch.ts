import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A trigram index on conversation names, so a search (`name ILIKE '%text%'`) with few matches reads the matches
 * instead of every conversation of the user (bench/conversations.mjs, 100,000 conversations: a rare search's page
 * 63 ms → 1.5 ms and its count 45 ms → 1.2 ms of database time).
 *
 * pg_trgm ships with PostgreSQL (and PGlite) and is a trusted extension. Where it cannot be installed the search
 * still works, only without the index, so that case is skipped rather than stopping the start. The operator
 * class is named with the extension's schema because the app's search_path may not include it.
 */
export class ConversationNameSearch1763890000000 implements MigrationInterface {
  name = 'ConversationNameSearch1763890000000';

  async up(q: QueryRunner): Promise<void> {
    const schema = await trigramSchema(q);
    if (!schema) return;
    await q.query(
      `CREATE INDEX conversations_name_trgm ON conversations USING gin (name "${schema}".gin_trgm_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS conversations_name_trgm`);
  }
}

/** The schema pg_trgm is installed in, installing it (in public when there is one) if it is not; null if it can't be. */
export async function trigramSchema(q: QueryRunner): Promise<string | null> {
  const installed = async () =>
    (
      (await q.query(
        `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm'`,
      )) as { schema: string }[]
    )[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  const [available] = (await q.query(
    `SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'`,
  )) as unknown[];
  if (!available) return null;
  const [publicSchema] = (await q.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'public'`)) as unknown[];
  // A savepoint, so that a refusal (no CREATE privilege) leaves the migration's transaction usable.
  await q.query(`SAVEPOINT install_pg_trgm`);
  try {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm${publicSchema ? ' SCHEMA public' : ''}`);
    await q.query(`RELEASE SAVEPOINT install_pg_trgm`);
  } catch {
    await q.query(`ROLLBACK TO SAVEPOINT install_pg_trgm`);
    return null;
  }
  return installed();
}
