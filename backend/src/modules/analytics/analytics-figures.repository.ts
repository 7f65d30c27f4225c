import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import {
  AnalyticsCounter,
  CancellationsDaily,
  CustomerSpan,
  CustomerSpansDaily,
  DueDaily,
  MoneyDaily,
  SignUpsDaily,
  WordsDaily,
} from './analytics-figures.entity';

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
    @InjectRepository(CancellationsDaily) private readonly cancellations: Repository<CancellationsDaily>,
    @InjectRepository(AnalyticsCounter) private readonly counters: Repository<AnalyticsCounter>,
    @InjectRepository(CustomerSpan) private readonly spans: Repository<CustomerSpan>,
    @InjectRepository(CustomerSpansDaily) private readonly spanDays: Repository<CustomerSpansDaily>,
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
    const qb = this.signUps.createQueryBuilder('s').select('COALESCE(sum(s.sign_ups), 0)::bigint', 'n');
    if (days) qb.where('s.day >= :from AND s.day < :to', days);
    return Number((await qb.getRawOne<{ n: string }>())?.n ?? 0);
  }

  async wordsGenerated(days: Days): Promise<number> {
    const row = await this.words
      .createQueryBuilder('w')
      .select('COALESCE(sum(w.words), 0)::bigint', 'n')
      .where('w.day >= :from AND w.day < :to', days)
      .getRawOne<{ n: string }>();
    return Number(row?.n ?? 0);
  }

  /** Purchases cancelled on the days. */
  async cancellationCount(days: Days): Promise<number> {
    const row = await this.cancellations
      .createQueryBuilder('x')
      .select('COALESCE(sum(x.cancellations), 0)::bigint', 'n')
      .where('x.day >= :from AND x.day < :to', days)
      .getRawOne<{ n: string }>();
    return Number(row?.n ?? 0);
  }

  /** Renewals or open invoices falling due on the days: how many and their amount. */
  async dueTotals(days: Days, kind: 'renewal' | 'invoice'): Promise<{ count: number; total: number }> {
    const row = await this.due
      .createQueryBuilder('d')
      .select('COALESCE(sum(d.items), 0)::int', 'count')
      .addSelect('COALESCE(sum(d.total), 0)::bigint', 'total')
      .where('d.kind = :kind AND d.day >= :from AND d.day < :to', { kind, ...days })
      .getRawOne<{ count: number; total: string }>();
    return { count: row?.count ?? 0, total: Number(row?.total ?? 0) };
  }

  async counter(name: 'running_subscriptions'): Promise<number> {
    const row = await this.counters.findOne({ where: { name } });
    return Number(row?.n ?? 0);
  }

  /**
   * Customers with a span that meets [from, to): spans starting before `to` less those ended before `from` (whole
   * days from the per-day counts, the day of `to` or `from` itself from the index), less the gaps wholly inside
   * the range (their customer's spans on both sides both meet it, and count once).
   */
  async activeCustomerCount(range: { from: Date; to: Date }): Promise<number> {
    const dayOf = (t: Date) => new Date(Math.floor(t.getTime() / 86_400_000) * 86_400_000);
    const before = async (column: 'starts' | 'ends', at: Date) => {
      const dayStart = dayOf(at);
      const [days, partial] = await Promise.all([
        this.spanDays
          .createQueryBuilder('d')
          .select(`COALESCE(sum(d.${column}), 0)::bigint`, 'n')
          .where('d.day < :day', { day: dayStart.toISOString().slice(0, 10) })
          .getRawOne<{ n: string }>(),
        this.spans
          .createQueryBuilder('s')
          .where(`s.${column}_at >= :dayStart AND s.${column}_at < :at`, { dayStart, at })
          .getCount(),
      ]);
      return Number(days?.n ?? 0) + partial;
    };
    const [started, ended, gaps] = await Promise.all([
      before('starts', range.to),
      before('ends', range.from),
      this.spans
        .createQueryBuilder('s')
        .where('s.previous_end >= :from AND s.previous_end < :to AND s.starts_at < :to', range)
        .getCount(),
    ]);
    return started - ended - gaps;
  }

  /** Which of `user_ids` have a span that meets [from, to). */
  async withSpanIn(user_ids: number[], range: { from: Date; to: Date }): Promise<Set<number>> {
    if (!user_ids.length) return new Set();
    const rows = await this.spans
      .createQueryBuilder('s')
      .select('DISTINCT s.user_id', 'user_id')
      .where('s.user_id IN (:...user_ids)', { user_ids })
      .andWhere('s.starts_at < :to AND (s.ends_at IS NULL OR s.ends_at >= :from)', range)
      .getRawMany<{ user_id: number }>();
    return new Set(rows.map((r) => r.user_id));
  }
}
