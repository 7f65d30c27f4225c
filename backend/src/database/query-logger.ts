import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/** The longest part of a failed statement's text that goes to the log. */
const MAX_STATEMENT_CHARS = 300;

/**
 * Logs failed queries without their parameters: parameters carry password hashes, token hashes, e-mail
 * addresses and message text, none of which may reach a log. The statement text is ours and is kept, shortened.
 */
export class QueryErrorLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    const reason = typeof error === 'string' ? error : error.message;
    this.logger.error(`query failed: ${reason} | ${summarizeStatement(query)}`);
  }

  logQuerySlow(): void {}

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}

/** The statement on one line, cut to a bounded length. */
export function summarizeStatement(query: string): string {
  const oneLine = query.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_STATEMENT_CHARS ? `${oneLine.slice(0, MAX_STATEMENT_CHARS)}…` : oneLine;
}
