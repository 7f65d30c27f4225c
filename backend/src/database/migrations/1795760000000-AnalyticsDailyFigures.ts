import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-day summaries of the analytics figures (UTC days), owned by the analytics module and kept exact by
 * statement-level triggers on the tables they summarise, so they change in the same transaction as every write,
 * whichever module or script makes it. A range then reads one row per day plus, for the partial days at its ends,
 * the indexed rows. Each trigger adds the contribution of the new rows and subtracts that of the old ones
 * (an update is both), grouped by key and upserted in key order, so concurrent writers add up and never deadlock.
 */
export class AnalyticsDailyFigures1795760000000 implements MigrationInterface {
  name = 'AnalyticsDailyFigures1795760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_money_daily (
        day date NOT NULL,
        source varchar(8) NOT NULL,
        payment_method_id int,
        product_id int,
        payments int NOT NULL,
        total bigint NOT NULL,
        CONSTRAINT analytics_money_daily_key UNIQUE NULLS NOT DISTINCT (day, source, payment_method_id, product_id)
      )`);
    await q.query(`CREATE TABLE analytics_sign_ups_daily (day date PRIMARY KEY, sign_ups int NOT NULL)`);
    await q.query(`CREATE TABLE analytics_words_daily (day date PRIMARY KEY, words bigint NOT NULL)`);
    await q.query(
      `CREATE TABLE analytics_cancellations_daily (day date PRIMARY KEY, cancellations int NOT NULL)`,
    );
    await q.query(`
      CREATE TABLE analytics_due_daily (
        day date NOT NULL,
        kind varchar(8) NOT NULL,
        items int NOT NULL,
        total bigint NOT NULL,
        PRIMARY KEY (day, kind)
      )`);
    await q.query(`CREATE TABLE analytics_counters (name varchar(32) PRIMARY KEY, n bigint NOT NULL)`);
    // Each customer's running purchases (active or completed) merged into disjoint time spans, with the end of
    // the span before (the gap between them), and per day how many spans start and end: a range's active
    // customers are the spans it meets less the gaps inside it, each a count over one index or the days.
    await q.query(`
      CREATE TABLE analytics_customer_spans (
        user_id int NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz,
        previous_end timestamptz
      )`);
    await q.query(`CREATE INDEX analytics_customer_spans_user ON analytics_customer_spans (user_id)`);
    await q.query(`CREATE INDEX analytics_customer_spans_starts ON analytics_customer_spans (starts_at)`);
    await q.query(
      `CREATE INDEX analytics_customer_spans_ends ON analytics_customer_spans (ends_at) WHERE ends_at IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX analytics_customer_spans_gaps ON analytics_customer_spans (previous_end) INCLUDE (starts_at)
         WHERE previous_end IS NOT NULL`,
    );
    // Running purchases that expire before they were created fit no span: kept apart, they are few or none.
    await q.query(`
      CREATE TABLE analytics_customer_inverted (
        user_id int NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX analytics_customer_inverted_user ON analytics_customer_inverted (user_id)`);
    await q.query(`
      CREATE TABLE analytics_customer_spans_daily (day date PRIMARY KEY, starts int NOT NULL, ends int NOT NULL)`);
    // The newest active customers: running purchases by creation time.
    await q.query(
      `CREATE INDEX purchases_running_created ON purchases ("createdAt", purchase_id) INCLUDE (user_id, expires_at)
         WHERE status IN ('active', 'completed')`,
    );

    // Writes wait until the triggers exist and the backfill is done, so no row is missed or counted twice.
    await q.query(`LOCK TABLE purchases, invoices, users, word_ledger IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(SPANS_FUNCTION);
    for (const s of SOURCES) {
      await q.query(triggerFunction(s));
      for (const op of ['INSERT', 'UPDATE', 'DELETE'] as const)
        await q.query(
          `CREATE TRIGGER ${s.table}_analytics_${op.toLowerCase()} AFTER ${op} ON ${s.table}
             REFERENCING ${op === 'INSERT' ? '' : 'OLD TABLE AS old_rows'} ${op === 'DELETE' ? '' : 'NEW TABLE AS new_rows'}
             FOR EACH STATEMENT EXECUTE FUNCTION ${s.table}_analytics()`,
        );
      for (const statement of s.statements(`SELECT 1 AS sign, t.* FROM ${s.table} t`))
        await q.query(statement);
    }
    // A purchase deleted takes its invoices' money off its product before the invoices lose their purchase_id
    // (the invoices' trigger then no longer sees which product it was).
    await q.query(`
      CREATE FUNCTION purchases_analytics_before_delete() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        ${invoiceMoney(`SELECT -1 AS sign, i.* FROM invoices i WHERE i.purchase_id = OLD.purchase_id`)};
        RETURN OLD;
      END $$`);
    await q.query(
      `CREATE TRIGGER purchases_analytics_before_delete BEFORE DELETE ON purchases
         FOR EACH ROW EXECUTE FUNCTION purchases_analytics_before_delete()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER purchases_analytics_before_delete ON purchases`);
    await q.query(`DROP FUNCTION purchases_analytics_before_delete()`);
    for (const s of SOURCES) {
      for (const op of ['insert', 'update', 'delete'])
        await q.query(`DROP TRIGGER ${s.table}_analytics_${op} ON ${s.table}`);
      await q.query(`DROP FUNCTION ${s.table}_analytics()`);
    }
    await q.query(`DROP FUNCTION analytics_customer_spans_of(int[])`);
    await q.query(`DROP TABLE analytics_customer_inverted`);
    await q.query(`DROP INDEX purchases_running_created`);
    await q.query(`DROP TABLE analytics_customer_spans_daily`);
    await q.query(`DROP TABLE analytics_customer_spans`);
    for (const table of [
      'counters',
      'due_daily',
      'cancellations_daily',
      'words_daily',
      'sign_ups_daily',
      'money_daily',
    ])
      await q.query(`DROP TABLE analytics_${table}`);
  }
}

/** The advisory lock class of the customer spans (with the user_id as the second key). */
const SPANS_LOCK = 1095650;
/** The most customers one statement locks one by one. */
const SPANS_LOCKS_MAX = 64;

/** A timestamp's UTC day. */
export const day = (column: string) => `(${column} AT TIME ZONE 'UTC')::date`;

/** Statuses of a purchase whose first payment was received (as PAID_STATUSES of the purchases module). */
const PAID = `('active', 'completed', 'cancelled', 'revoked')`;

/**
 * Money received per day, payment method and product: first payments of purchases net of refunds, and completed
 * invoices that are not a purchase's first payment (renewals, or staff invoices without a purchase), with the
 * product of the invoice's purchase. `changed` rows carry `sign` (+1 new, -1 old).
 */
const purchaseMoney = (changed: string) => `
  WITH changed AS (${changed})
  INSERT INTO analytics_money_daily AS m (day, source, payment_method_id, product_id, payments, total)
  SELECT ${day('c.paid_at')}, 'purchase', c.payment_method_id, c.product_id, sum(c.sign),
         sum(c.sign * (c.amount - c.refunded_amount))
    FROM changed c WHERE c.paid_at IS NOT NULL AND c.status IN ${PAID}
   GROUP BY 1, 3, 4 HAVING sum(c.sign) <> 0 OR sum(c.sign * (c.amount - c.refunded_amount)) <> 0
   ORDER BY 1, 3, 4
  ON CONFLICT ON CONSTRAINT analytics_money_daily_key
  DO UPDATE SET payments = m.payments + EXCLUDED.payments, total = m.total + EXCLUDED.total`;

const invoiceMoney = (changed: string) => `
  WITH changed AS (${changed})
  INSERT INTO analytics_money_daily AS m (day, source, payment_method_id, product_id, payments, total)
  SELECT ${day('c.paid_at')}, 'invoice', c.payment_method_id, p.product_id, sum(c.sign),
         sum(c.sign * (c.amount - c.refunded_amount))
    FROM changed c LEFT JOIN purchases p ON p.purchase_id = c.purchase_id
   WHERE c.status = 'completed' AND c.paid_at IS NOT NULL AND (c.period_end IS NOT NULL OR c.purchase_id IS NULL)
     -- An old row whose purchase is gone was taken off by the purchase's delete trigger.
     AND (c.purchase_id IS NULL OR p.purchase_id IS NOT NULL)
   GROUP BY 1, 3, 4 HAVING sum(c.sign) <> 0 OR sum(c.sign * (c.amount - c.refunded_amount)) <> 0
   ORDER BY 1, 3, 4
  ON CONFLICT ON CONSTRAINT analytics_money_daily_key
  DO UPDATE SET payments = m.payments + EXCLUDED.payments, total = m.total + EXCLUDED.total`;

/** Money expected per day: renewals of running subscriptions, or open invoices falling due. */
const due = (changed: string, kind: 'renewal' | 'invoice', column: string, where: string) => `
  WITH changed AS (${changed})
  INSERT INTO analytics_due_daily AS d (day, kind, items, total)
  SELECT ${day(`c.${column}`)}, '${kind}', sum(c.sign), sum(c.sign * c.amount)
    FROM changed c WHERE c.${column} IS NOT NULL AND ${where}
   GROUP BY 1 HAVING sum(c.sign) <> 0 OR sum(c.sign * c.amount) <> 0 ORDER BY 1
  ON CONFLICT (day, kind) DO UPDATE SET items = d.items + EXCLUDED.items, total = d.total + EXCLUDED.total`;

const SOURCES: { table: string; statements: (changed: string) => string[] }[] = [
  {
    table: 'purchases',
    statements: (changed) => [
      purchaseMoney(changed),
      due(
        changed,
        'renewal',
        'current_period_end',
        `c.status = 'active' AND c.subscription_interval IS NOT NULL AND NOT c.cancel_at_period_end`,
      ),
      `WITH changed AS (${changed})
       INSERT INTO analytics_counters AS k (name, n)
       SELECT 'running_subscriptions', sum(c.sign) FROM changed c
        WHERE c.status = 'active' AND c.subscription_interval IS NOT NULL HAVING sum(c.sign) <> 0
       ON CONFLICT (name) DO UPDATE SET n = k.n + EXCLUDED.n`,
      `WITH changed AS (${changed})
       INSERT INTO analytics_cancellations_daily AS x (day, cancellations)
       SELECT ${day('c.cancelled_at')}, sum(c.sign) FROM changed c WHERE c.cancelled_at IS NOT NULL
        GROUP BY 1 HAVING sum(c.sign) <> 0 ORDER BY 1
       ON CONFLICT (day) DO UPDATE SET cancellations = x.cancellations + EXCLUDED.cancellations`,
      // The customers whose running purchases changed (a plain SELECT: the trigger function PERFORMs it).
      `SELECT analytics_customer_spans_of(array_agg(DISTINCT user_id)) FROM (
         WITH changed AS (${changed})
         SELECT c.user_id FROM changed c WHERE c.status IN ('active', 'completed') AND c.user_id IS NOT NULL
          GROUP BY c.user_id, c."createdAt", c.expires_at HAVING sum(c.sign) <> 0) x`,
    ],
  },
  {
    table: 'invoices',
    statements: (changed) => [
      invoiceMoney(changed),
      due(changed, 'invoice', 'expiration_date', `c.status = 'pending'`),
    ],
  },
  {
    table: 'users',
    statements: (changed) => [
      `WITH changed AS (${changed})
       INSERT INTO analytics_sign_ups_daily AS s (day, sign_ups)
       SELECT ${day('c."createdAt"')}, sum(c.sign) FROM changed c
        GROUP BY 1 HAVING sum(c.sign) <> 0 ORDER BY 1
       ON CONFLICT (day) DO UPDATE SET sign_ups = s.sign_ups + EXCLUDED.sign_ups`,
    ],
  },
  {
    table: 'word_ledger',
    statements: (changed) => [
      `WITH changed AS (${changed})
       INSERT INTO analytics_words_daily AS w (day, words)
       SELECT ${day('c."createdAt"')}, -sum(c.sign * c.words) FROM changed c WHERE c.kind = 'debit'
        GROUP BY 1 HAVING sum(c.sign * c.words) <> 0 ORDER BY 1
       ON CONFLICT (day) DO UPDATE SET words = w.words + EXCLUDED.words`,
    ],
  },
];

/**
 * The start of `analytics_customer_spans_of`: the customers' locks and their inverted purchases (shared with
 * later versions of the function).
 */
export const SPANS_LOCK_AND_INVERTED = `
    IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
    -- Many customers at once (a bulk write, the backfill) take the lock of all of them instead of one each.
    IF cardinality(ids) > ${SPANS_LOCKS_MAX} THEN
      PERFORM pg_advisory_xact_lock(${SPANS_LOCK}, 0);
    ELSE
      PERFORM pg_advisory_xact_lock_shared(${SPANS_LOCK}, 0);
      PERFORM pg_advisory_xact_lock(${SPANS_LOCK}, u) FROM (SELECT DISTINCT unnest(ids) AS u ORDER BY 1) x;
    END IF;
    DELETE FROM analytics_customer_inverted WHERE user_id = ANY(ids);
    INSERT INTO analytics_customer_inverted (user_id, created_at, expires_at)
    SELECT user_id, "createdAt", expires_at FROM purchases
     WHERE user_id = ANY(ids) AND status IN ('active', 'completed') AND expires_at < "createdAt";
`.slice(1);

/**
 * The customers' spans recomputed from their running purchases and written (`new`: the rows written), as the
 * common table expressions of one statement (shared with later versions of the function).
 */
export const SPANS_NEW_CTES = `
    p AS (
      SELECT user_id, "createdAt" AS c, expires_at AS e FROM purchases
       WHERE user_id = ANY(ids) AND status IN ('active', 'completed')
         AND (expires_at IS NULL OR expires_at >= "createdAt")),
    reach AS (
      SELECT *, max(COALESCE(e, 'infinity')) OVER (PARTITION BY user_id ORDER BY c, e NULLS LAST
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reached FROM p),
    islands AS (
      SELECT *, count(*) FILTER (WHERE reached IS NULL OR c > reached)
               OVER (PARTITION BY user_id ORDER BY c, e NULLS LAST ROWS UNBOUNDED PRECEDING) AS island FROM reach),
    spans AS (
      SELECT user_id, min(c) AS starts_at, CASE WHEN bool_or(e IS NULL) THEN NULL ELSE max(e) END AS ends_at
        FROM islands GROUP BY user_id, island),
    new AS (
      INSERT INTO analytics_customer_spans (user_id, starts_at, ends_at, previous_end)
      SELECT user_id, starts_at, ends_at, lag(ends_at) OVER (PARTITION BY user_id ORDER BY starts_at) FROM spans
      RETURNING starts_at, ends_at),`.trimStart();

/**
 * Recomputes the spans of the given customers from their running purchases (those that expire before they were
 * created are kept apart), and the per-day counts of span starts and ends. A lock per customer, taken in id order, makes
 * concurrent writers for one customer take turns; each statement after it sees what the other committed.
 */
export const SPANS_FUNCTION = `
  CREATE FUNCTION analytics_customer_spans_of(ids int[]) RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
${SPANS_LOCK_AND_INVERTED}    WITH old AS (DELETE FROM analytics_customer_spans WHERE user_id = ANY(ids) RETURNING starts_at, ends_at),
    delta AS (
      SELECT ${day('starts_at')} AS day, -1 AS starts, 0 AS ends FROM old
      UNION ALL SELECT ${day('ends_at')}, 0, -1 FROM old WHERE ends_at IS NOT NULL)
    INSERT INTO analytics_customer_spans_daily AS d (day, starts, ends)
    SELECT day, sum(starts), sum(ends) FROM delta GROUP BY day ORDER BY day
    ON CONFLICT (day) DO UPDATE SET starts = d.starts + EXCLUDED.starts, ends = d.ends + EXCLUDED.ends;
    WITH ${SPANS_NEW_CTES}
    delta AS (
      SELECT ${day('starts_at')} AS day, 1 AS starts, 0 AS ends FROM new
      UNION ALL SELECT ${day('ends_at')}, 0, 1 FROM new WHERE ends_at IS NOT NULL)
    INSERT INTO analytics_customer_spans_daily AS d (day, starts, ends)
    SELECT day, sum(starts), sum(ends) FROM delta GROUP BY day ORDER BY day
    ON CONFLICT (day) DO UPDATE SET starts = d.starts + EXCLUDED.starts, ends = d.ends + EXCLUDED.ends;
  END $$`;

/** One function per table for its three statement triggers: the changed rows are the new, the old, or both. */
function triggerFunction(s: (typeof SOURCES)[number]): string {
  const body = (changed: string) =>
    s
      .statements(changed)
      .map((sql) => sql.replace(/^SELECT /, 'PERFORM ') + ';')
      .join('\n');
  return `
    CREATE FUNCTION ${s.table}_analytics() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
