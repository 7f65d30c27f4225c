import { DataSource } from 'typeorm';
import { prepared } from '../src/database/prepared-statements';
import { startTestApp, TestApp } from './harness';

/**
 * Statements marked `prepared` run as named prepared statements on each connection (parsed once, the plan
 * reusable); the others as before. Checked on a real database through PostgreSQL's own list of the session's
 * prepared statements. The marked statements of a chat answer (the exchange, the saved answer, the lots) run in
 * the messages, words and generation tests.
 */
describe('Prepared statements', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('prepares a marked statement once per connection and answers it as an unprepared one would', async () => {
    const marked = prepared('SELECT $1::int + 1 AS next, $2::text AS label /* prepared-statements test */');
    const plain = 'SELECT $1::int + 2 AS next /* prepared-statements test, not marked */';
    const runner = t.app.get(DataSource).createQueryRunner();
    try {
      await runner.connect();
      const before = await runner.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`);
      expect(await runner.query(marked, [1, 'one'])).toEqual([{ next: 2, label: 'one' }]);
      expect(await runner.query(marked, [41, 'again'])).toEqual([{ next: 42, label: 'again' }]);
      expect(await runner.query(plain, [1])).toEqual([{ next: 3 }]);
      const statements = (await runner.query(
        `SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE '%prepared-statements test%'`,
      )) as { name: string; statement: string }[];
      // One prepared statement for the marked text, whatever the values; none for the other.
      expect(statements).toEqual([{ name: expect.stringMatching(/^prepared_\d+$/), statement: marked }]);
      const after = await runner.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`);
      expect(after[0].n).toBe(before[0].n + 1);
    } finally {
      await runner.release();
    }
  });

  it('reports a failed marked statement as the database error it is, and the connection goes on', async () => {
    const marked = prepared('SELECT 1 / $1::int AS quotient /* prepared-statements failure test */');
    const runner = t.app.get(DataSource).createQueryRunner();
    try {
      await runner.connect();
      await expect(runner.query(marked, [0])).rejects.toThrow('division by zero');
      expect(await runner.query(marked, [1])).toEqual([{ quotient: 1 }]);
    } finally {
      await runner.release();
    }
  });
});
