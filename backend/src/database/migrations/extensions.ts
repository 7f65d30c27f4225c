// Migration helper: installs the optional extensions the migrations (and the test harness, once per database)
// need. Raw SQL on the system catalog, which no module owns.

/**
 * What the helper needs of a connection: a migration's QueryRunner has it as it is; a `pg` Client is adapted
 * with `(sql, params) => client.query(sql, params).then((r) => r.rows)`.
 */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** Extensions the migrations use when the database offers them, and nothing else may be installed this way. */
export type OptionalExtension = 'pg_trgm' | 'vector';

/**
 * The schema `name` is installed in, installing it (in public when there is one) if the database offers it and
 * it is not installed yet; null when it is not offered or may not be installed. Callers name its types and
 * operators with that schema, because the app's search_path may not include it. Must run inside a transaction:
 * the install is tried under a savepoint, so a refusal (no CREATE privilege) leaves the transaction usable.
 */
export async function extensionSchema(q: SqlRunner, name: OptionalExtension): Promise<string | null> {
  const rows = async (sql: string, params: unknown[] = []) => (await q.query(sql, params)) as unknown[];
  const installed = async () =>
    (
      (await rows(
        `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
          WHERE e.extname = $1`,
        [name],
      )) as { schema: string }[]
    )[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  const [available] = await rows(`SELECT 1 FROM pg_available_extensions WHERE name = $1`, [name]);
  if (!available) return null;
  const [publicSchema] = await rows(`SELECT 1 FROM pg_namespace WHERE nspname = 'public'`);
  // The name is one of OptionalExtension's, so writing it into the statement is safe.
  await q.query(`SAVEPOINT install_extension`);
  try {
    await q.query(`CREATE EXTENSION IF NOT EXISTS "${name}"${publicSchema ? ' SCHEMA public' : ''}`);
    await q.query(`RELEASE SAVEPOINT install_extension`);
  } catch {
    await q.query(`ROLLBACK TO SAVEPOINT install_extension`);
    return null;
  }
  return installed();
}
