import * as pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, resilientPg } from './resilient-pg';

describe('isDatabaseUnavailable', () => {
  it('knows a query whose connection ended, and the server shutting down', () => {
    const ended = new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly'));
    expect(isDatabaseUnavailable(ended)).toBe(true);
    const shutdown = Object.assign(
      new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'),
      {
        code: '57P01',
      },
    );
    expect(isDatabaseUnavailable(shutdown)).toBe(true);
  });

  it('does not take a query error, or another service refusing a connection, for an outage', () => {
    const duplicate = new QueryFailedError(
      'INSERT',
      [],
      Object.assign(new Error('duplicate key'), { code: '23505' }),
    );
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    // An AI provider or S3 refusing a connection is not the database.
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('resilientPg', () => {
  it('gives up after the retry window and marks the error as an outage', async () => {
    const { Pool } = resilientPg(300);
    // Port 1 on loopback refuses at once.
    const pool = new Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    const started = Date.now();
    const err = await pool.connect().catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(Date.now() - started).toBeLessThan(2000);
    await pool.end();
  });

  it('answers the callback form TypeORM uses', async () => {
    const { Pool } = resilientPg(0);
    const pool = new Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    const err = await new Promise((resolve) => pool.connect((e) => resolve(e)));
    expect(isDatabaseUnavailable(err)).toBe(true);
    await pool.end();
  });
});
