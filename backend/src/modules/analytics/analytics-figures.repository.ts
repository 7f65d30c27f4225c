import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { builtRead, type StatementRead } from '../../database/unit-of-work';
import { AnalyticsCounter, DueDaily, MoneyDaily, SignUpsDaily, WordsDaily } from './analytics-figures.entity';

/** Whole UTC days [from, to), as 'YYYY-MM-DD'. */
export interface Days {
  from: string;
  to: string;
}

/** Sums of the per-day summary tables over whole days: one row read per day (and key). */
@Injectable()
export class AnalyticsFiguresRepository {
  constructor(
    @InjectRepository(MoneyDaily) private readonly money: Repository<MoneyDaily>,
    @InjectRepository(SignUpsDaily) private readonly signUps: Repository<SignUpsDaily>,
    @InjectRepository(WordsDaily) private readonly words: Repository<WordsDaily>,
    @InjectRepository(DueDaily) private readonly due: Repository<DueDaily>,
    @InjectRepository(AnalyticsCounter) private readonly counters: Repository<AnalyticsCounter>,
  ) {}

  /**
   * Money received on the days, grouped by payment method or product. By product, invoices without a purchase
   * have no product and are left out, as the purchases module's own sum leaves them out.
   */
  async moneyBy(days: Days, by: 'payment_method_id' | 'product_id') {
    const qb = this.money
      .createQueryBuilder('m')
      .select(`m.${by}`, 'key')
      .addSelect('sum(m.payments)::int', 'payments')
      .addSelect('sum(m.total)::bigint', 'total')
      .where('m.day >= :from AND m.day < :to', days)
      .groupBy(`m.${by}`)
      .having('sum(m.payments) <> 0 OR sum(m.total) <> 0');
    if (by === 'product_id') qb.andWhere(`NOT (m.source = 'invoice' AND m.product_id IS NULL)`);
    const rows = await qb.getRawMany<{ key: number | null; payments: number; total: string }>();
    return rows.map((r) => ({ key: r.key, payments: r.payments, total: Number(r.total) }));
  }

  /** Accounts created on the days; without days, every account. */
  async signUpCount(days?: Days): Promise<number> {
    return Number((await this.signUpCountQuery(days).getRawOne<{ n: string }>())?.n ?? 0);
  }

  /** signUpCount as a read to send with others. */
  signUpCountRead(days?: Days): StatementRead<number> {
    return builtRead(this.signUpCountQuery(days), (rows: { n: string }[]) => Number(rows[0]?.n ?? 0));
  }

  private signUpCountQuery(days?: Days) {
    const qb = this.signUps.createQueryBuilder('s').select('COALESCE(sum(s.sign_ups), 0)::bigint', 'n');
    if (days) qb.where('s.day >= :from AND s.day < :to', days);
    return qb;
  }

  async wordsGenerated(days: Days): Promise<number> {
    const row = await this.words
      .createQueryBuilder('w')
      .select('COALESCE(sum(w.words), 0)::bigint', 'n')
      .where('w.day >= :from AND w.day < :to', days)
      .getRawOne<{ n: string }>();
    return Number(row?.n ?? 0);
  }

  /** Renewals and open invoices falling due on the days: how many of each and their amounts. */
  async dueTotals(days: Days): Promise<Record<'renewal' | 'invoice', { count: number; total: number }>> {
    const rows = await this.due
      .createQueryBuilder('d')
      .select('d.kind', 'kind')
      .addSelect('sum(d.items)::int', 'count')
      .addSelect('sum(d.total)::bigint', 'total')
      .where('d.day >= :from AND d.day < :to', days)
      .groupBy('d.kind')
      .getRawMany<{ kind: 'renewal' | 'invoice'; count: number; total: string }>();
    const of = (kind: string) => rows.find((r) => r.kind === kind);
    return {
      renewal: { count: of('renewal')?.count ?? 0, total: Number(of('renewal')?.total ?? 0) },
      invoice: { count: of('invoice')?.count ?? 0, total: Number(of('invoice')?.total ?? 0) },
    };
  }

  async counter(name: 'running_subscriptions'): Promise<number> {
    const row = await this.counters.findOne({ where: { name } });
    return Number(row?.n ?? 0);
  }

  /**
   * The customers call's counts at once, as a read to send with others (UnitOfWork.readTogether). Active: customers with a span that meets [from, to), that is spans
   * starting before `to` less those ended before `from` (whole days from the per-day counts, the day of `to` or
   * `from` itself from the index), less the gaps wholly inside the range (their customer's spans on both sides
   * both meet it, and count once), plus the holders of a purchase kept apart that meets it and no span of theirs
   * does. Sign-ups and cancellations: on the whole `days` (zero without).
   */
  customerCountsRead(
    range: { from: Date; to: Date },
    days: Days | null,
  ): StatementRead<{ active: number; sign_ups: number; cancellations: number }> {
    const dayOf = (t: Date) => new Date(Math.floor(t.getTime() / 86_400_000) * 86_400_000);
    return {
      statement: {
        sql: `SELECT (SELECT COALESCE(sum(starts), 0) FROM analytics_customer_spans_daily WHERE day < $3::date)
            + (SELECT count(*) FROM analytics_customer_spans WHERE starts_at >= $3 AND starts_at < $2)
            - (SELECT COALESCE(sum(ends), 0) FROM analytics_customer_spans_daily WHERE day < $4::date)
            - (SELECT count(*) FROM analytics_customer_spans WHERE ends_at >= $4 AND ends_at < $1)
            - (SELECT count(*) FROM analytics_customer_spans
                WHERE previous_end >= $1 AND previous_end < $2 AND starts_at < $2)
            + (SELECT count(DISTINCT i.user_id) FROM analytics_customer_inverted i
                WHERE i.created_at < $2 AND i.expires_at >= $1
                  AND NOT EXISTS (SELECT 1 FROM analytics_customer_spans s WHERE s.user_id = i.user_id
                                     AND s.starts_at < $2 AND (s.ends_at IS NULL OR s.ends_at >= $1))) AS active,
              (SELECT COALESCE(sum(sign_ups), 0) FROM analytics_sign_ups_daily WHERE day >= $5 AND day < $6)
                AS sign_ups,
              (SELECT COALESCE(sum(cancellations), 0) FROM analytics_cancellations_daily
                WHERE day >= $5 AND day < $6) AS cancellations`,
        values: [
          range.from,
          range.to,
          dayOf(range.to),
          dayOf(range.from),
          days?.from ?? null,
          days?.to ?? null,
        ],
      },
      read: (rows) => {
        const [row] = rows as { active: string; sign_ups: string; cancellations: string }[];
        return {
          active: Number(row.active),
          sign_ups: Number(row.sign_ups),
          cancellations: Number(row.cancellations),
        };
      },
    };
  }

  /**
   * dayTotals per calendar month ('YYYY-MM') of the days, in one statement; months with nothing are absent.
   * Each summary is summed per month before the three meet, and the month is named once per month: naming every
   * day's row (to_char) took a quarter of the statement's time over a year (the money summary holds a row per
   * day, source, payment method and product).
   */
  async monthTotals(
    days: Days,
  ): Promise<Map<string, { sign_ups: number; income: number; payments: number; words: number }>> {
    const rows = await this.money.query<
      { month: string; sign_ups: string; income: string; payments: string; words: string }[]
    >(
      `SELECT to_char(month, 'YYYY-MM') AS month, sum(sign_ups) AS sign_ups, sum(income) AS income,
              sum(payments) AS payments, sum(words) AS words
         FROM (SELECT date_trunc('month', day) AS month, sum(sign_ups) AS sign_ups, 0 AS income, 0 AS payments,
                      0 AS words
                 FROM analytics_sign_ups_daily WHERE day >= $1 AND day < $2 GROUP BY 1
               UNION ALL
               SELECT date_trunc('month', day), 0, sum(total), sum(payments), 0
                 FROM analytics_money_daily WHERE day >= $1 AND day < $2 GROUP BY 1
               UNION ALL
               SELECT date_trunc('month', day), 0, 0, 0, sum(words)
                 FROM analytics_words_daily WHERE day >= $1 AND day < $2 GROUP BY 1) per_month
        GROUP BY 1`,
      [days.from, days.to],
    );
    return new Map(
      rows.map((r) => [
        r.month,
        {
          sign_ups: Number(r.sign_ups),
          income: Number(r.income),
          payments: Number(r.payments),
          words: Number(r.words),
        },
      ]),
    );
  }

  /** Sign-ups, money received (all of it, and how many payments) and words generated on the days, at once. */
  async dayTotals(
    days: Days,
  ): Promise<{ sign_ups: number; income: number; payments: number; words: number }> {
    const [row] = await this.money.query<
      { sign_ups: string; income: string; payments: string; words: string }[]
    >(
      `SELECT (SELECT COALESCE(sum(sign_ups), 0) FROM analytics_sign_ups_daily WHERE day >= $1 AND day < $2) AS sign_ups,
              (SELECT COALESCE(sum(total), 0) FROM analytics_money_daily WHERE day >= $1 AND day < $2) AS income,
              (SELECT COALESCE(sum(payments), 0) FROM analytics_money_daily WHERE day >= $1 AND day < $2) AS payments,
              (SELECT COALESCE(sum(words), 0) FROM analytics_words_daily WHERE day >= $1 AND day < $2) AS words`,
      [days.from, days.to],
    );
    return {
      sign_ups: Number(row.sign_ups),
      income: Number(row.income),
      payments: Number(row.payments),
      words: Number(row.words),
    };
  }
}
