import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { QueryErrorLogger, summarizeStatement } from './query-logger';

describe('QueryErrorLogger', () => {
  it('logs a failed query without its parameters', () => {
    const errors: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => {
      errors.push(String(message));
    });
    try {
      const logger: TypeOrmLogger = new QueryErrorLogger();
      logger.logQueryError(
        new Error('duplicate key value violates unique constraint'),
        'INSERT INTO users (email, password) VALUES ($1, $2)',
        ['someone@example.com', '$argon2id$v=19$secret-hash'],
      );
    } finally {
      spy.mockRestore();
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('duplicate key value');
    expect(errors[0]).toContain('INSERT INTO users');
    expect(errors[0]).not.toContain('someone@example.com');
    expect(errors[0]).not.toContain('secret-hash');
  });

  it('keeps a long statement to one bounded line', () => {
    const statement = `SELECT ${'a,\n  '.repeat(500)} b FROM t`;
    const summary = summarizeStatement(statement);
    expect(summary).not.toContain('\n');
    expect(summary.length).toBeLessThanOrEqual(301);
  });
});
