import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  day,
  SPANS_FUNCTION,
  SPANS_LOCK_AND_INVERTED,
  SPANS_NEW_CTES,
} from './1795760000000-AnalyticsDailyFigures';

/**
 * `analytics_customer_spans_of` writes the per-day counts of span starts and ends in one upsert, in day order,
 * instead of two (the removed spans' days, then the new spans' days, each in day order): two transactions for
 * different customers could each hold a day the other's second upsert needed, and PostgreSQL ended one of them
 * with "deadlock detected" (two purchases written at once, seen in the analytics oracle test under load). One
 * upsert takes the day rows' locks in one order, and a day whose count does not change is not written.
 */
export class AnalyticsSpansOneUpsert1795800000000 implements MigrationInterface {
  name = 'AnalyticsSpansOneUpsert1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
  CREATE OR REPLACE FUNCTION analytics_customer_spans_of(ids int[]) RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
${SPANS_LOCK_AND_INVERTED}    WITH old AS (DELETE FROM analytics_customer_spans WHERE user_id = ANY(ids) RETURNING starts_at, ends_at),
    ${SPANS_NEW_CTES}
    delta AS (
      SELECT ${day('starts_at')} AS day, -1 AS starts, 0 AS ends FROM old
      UNION ALL SELECT ${day('ends_at')}, 0, -1 FROM old WHERE ends_at IS NOT NULL
      UNION ALL SELECT ${day('starts_at')}, 1, 0 FROM new
      UNION ALL SELECT ${day('ends_at')}, 0, 1 FROM new WHERE ends_at IS NOT NULL)
    INSERT INTO analytics_customer_spans_daily AS d (day, starts, ends)
    SELECT day, sum(starts), sum(ends) FROM delta GROUP BY day HAVING sum(starts) <> 0 OR sum(ends) <> 0
     ORDER BY day
    ON CONFLICT (day) DO UPDATE SET starts = d.starts + EXCLUDED.starts, ends = d.ends + EXCLUDED.ends;
  END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(SPANS_FUNCTION.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
  }
}
