import { MigrationInterface, QueryRunner } from 'typeorm';

/** Rows per day of the words summary: its writers spread over them by user. */
const SHARDS = 16;

/** The words summary's statement for the changed ledger rows, per day and shard (see up()). */
const wordsStatement = (changed: string) => `
  WITH changed AS (${changed})
  INSERT INTO analytics_words_daily AS w (day, shard, words)
  SELECT (c."createdAt" AT TIME ZONE 'UTC')::date, COALESCE(c.user_id, 0) % ${SHARDS}, -sum(c.sign * c.words)
    FROM changed c WHERE c.kind = 'debit'
   GROUP BY 1, 2 HAVING sum(c.sign * c.words) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, shard) DO UPDATE SET words = w.words + EXCLUDED.words`;

/**
 * Every generation's charge adds to the day's words summary in its own transaction, which held that one row's
 * lock until it committed: all users' charges of a day took turns on it. The day now has up to 16 rows, chosen by
 * the user (one user's charges take turns on their own lock already); readers sum over the days as before.
 */
export class WordsDailyShards1795770000002 implements MigrationInterface {
  name = 'WordsDailyShards1795770000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE analytics_words_daily ADD COLUMN shard smallint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE analytics_words_daily DROP CONSTRAINT analytics_words_daily_pkey`);
    await q.query(`ALTER TABLE analytics_words_daily ADD PRIMARY KEY (day, shard)`);
    await q.query(`ALTER TABLE analytics_words_daily ALTER COLUMN shard DROP DEFAULT`);
    await q.query(this.ledgerFunction(wordsStatement));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_words_daily_merged AS
        SELECT day, sum(words)::bigint AS words FROM analytics_words_daily GROUP BY day`);
    await q.query(`DELETE FROM analytics_words_daily`);
    await q.query(`ALTER TABLE analytics_words_daily DROP CONSTRAINT analytics_words_daily_pkey`);
    await q.query(`ALTER TABLE analytics_words_daily DROP COLUMN shard`);
    await q.query(`ALTER TABLE analytics_words_daily ADD PRIMARY KEY (day)`);
    await q.query(
      `INSERT INTO analytics_words_daily (day, words) SELECT day, words FROM analytics_words_daily_merged`,
    );
    await q.query(`DROP TABLE analytics_words_daily_merged`);
    await q.query(
      this.ledgerFunction(
        (changed) => `
        WITH changed AS (${changed})
        INSERT INTO analytics_words_daily AS w (day, words)
        SELECT (c."createdAt" AT TIME ZONE 'UTC')::date, -sum(c.sign * c.words) FROM changed c WHERE c.kind = 'debit'
         GROUP BY 1 HAVING sum(c.sign * c.words) <> 0 ORDER BY 1
        ON CONFLICT (day) DO UPDATE SET words = w.words + EXCLUDED.words`,
      ),
    );
  }

  /** The ledger's statement triggers' function (AnalyticsDailyFigures), with the words statement given. */
  private ledgerFunction(statement: (changed: string) => string): string {
    const body = (changed: string) => statement(changed) + ';';
    return `
      CREATE OR REPLACE FUNCTION word_ledger_analytics() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${body('SELECT 1 AS sign, n.* FROM new_rows n')}
        ELSIF TG_OP = 'DELETE' THEN
          ${body('SELECT -1 AS sign, o.* FROM old_rows o')}
        ELSE
          ${body('SELECT 1 AS sign, n.* FROM new_rows n UNION ALL SELECT -1 AS sign, o.* FROM old_rows o')}
        END IF;
        RETURN NULL;
      END $$`;
  }
}
