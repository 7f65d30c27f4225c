import { Injectable } from '@nestjs/common';
import { WorkerPool, WorkerTaskFailed, workerTask } from '../../common/workers/worker-pool';
import type { ReportInput, ReportOutput } from './analytics-report.worker';
import { AnalyticsFiguresRepository, type Days } from './analytics-figures.repository';
import { PAYMENT_METHODS } from '@avatar-studio/contracts';
import { badInput } from '../../common/errors/domain-error';
import { toPage, type Page } from '../../common/http/pagination';
import { JobQueue } from '../../common/jobs/job-queue';
import { FreshSharedReads } from '../../common/concurrency/fresh-shared-reads';
import { UnitOfWork, type StatementRead } from '../../database/unit-of-work';
import { AvatarsService } from '../avatars/avatars.service';
import { ConversationsService } from '../conversations/conversations.service';
import { PaymentWebhooksService } from '../payments/payment-webhooks.service';
import { ProductsService } from '../products/products.service';
import { TutorialsService } from '../tutorials/tutorials.service';
import { PurchaseAnalyticsService, type MoneyRow } from '../purchases/purchase-analytics.service';
import { UsersService } from '../users/users.service';
import type { UserName } from '../users/users.repository';
import { WordsService } from '../words/words.service';
import type {
  AnalyticsCustomerDto,
  AnalyticsRangeQuery,
  CustomerGroup,
  CustomersAnalyticsResponse,
  CustomersPageQuery,
  CustomersPageResponse,
  DashboardResponse,
  FreeTrialsResponse,
  IncomeResponse,
  InstructorsResponse,
  InstructorUsageDto,
  MonthlyAnalyticsResponse,
  ProductsIncomeResponse,
  ReservationsResponse,
  VideosResponse,
  WordsAnalyticsResponse,
} from './dto/analytics.dto';

/** Rows of each table the analytics answer (the counts cover every row). */
export const ANALYTICS_TABLE_LIMIT = 100;
/** Rows per page of a customers card's table. */
export const ANALYTICS_CUSTOMERS_PAGE_SIZE = 20;
/** How far back the dashboard looks for webhook events that failed. */
export const WEBHOOK_FAILURES_DAYS = 7;
/** The most rows of the sign-ups and instructors reports. */
export const SIGN_UPS_REPORT_LIMIT = 10_000;
const REPORT_TASK = workerTask(__filename, 'analytics-report.worker');
const REPORT_TIMEOUT_MS = 30_000;
const dollars = (cents: number) => (cents / 100).toFixed(2);
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The most months one monthly call answers. */
export const MONTHLY_MAX_MONTHS = 36;

/** The calendar months (UTC) that [from, to) touches, each cut to the range. */
export function monthsOf(range: { from: Date; to: Date }): { month: string; from: Date; to: Date }[] {
  const months: { month: string; from: Date; to: Date }[] = [];
  let start = new Date(Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth(), 1));
  while (start < range.to) {
    const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    months.push({
      month: start.toISOString().slice(0, 7),
      from: start < range.from ? range.from : start,
      to: next > range.to ? range.to : next,
    });
    start = next;
  }
  return months;
}

/** The longest range one call may cover. */
const MAX_RANGE_DAYS = 3660;

/** [start_date, end_date): the query's, or the start of the current month (UTC) to the start of the next. */
export function analyticsRange(query: AnalyticsRangeQuery, now = new Date()): { from: Date; to: Date } {
  const from = query.start_date ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = query.end_date ?? new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  if (from >= to) throw badInput('start_date must be before end_date.', 'invalid_date_range');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * 86_400_000)
    throw badInput(`The date range must be ${MAX_RANGE_DAYS} days or less.`, 'invalid_date_range');
  return { from, to };
}

type Range = { from: Date; to: Date };

/**
 * A range cut into the whole UTC days it covers (answered by the per-day summaries) and the parts of a day left
 * at its ends (answered by the indexed rows); a range within one or two days may have no whole day.
 */
export function splitByDays(range: Range): { days: Days | null; parts: Range[] } {
  const DAY = 86_400_000;
  const first = new Date(Math.ceil(range.from.getTime() / DAY) * DAY);
  const last = new Date(Math.floor(range.to.getTime() / DAY) * DAY);
  if (first >= last) return { days: null, parts: [range] };
  const parts: Range[] = [];
  if (range.from < first) parts.push({ from: range.from, to: first });
  if (last < range.to) parts.push({ from: last, to: range.to });
  return { days: { from: day(first), to: day(last) }, parts };
}

/** A count over a range: its whole days from a summary, the parts of a day at its ends from the rows. */
async function sumOverDays(
  range: Range,
  fromSummary: (days: Days) => Promise<number>,
  fromRows: (part: Range) => Promise<number>,
): Promise<number> {
  const { days, parts } = splitByDays(range);
  const counts = await Promise.all([days ? fromSummary(days) : 0, ...parts.map(fromRows)]);
  return counts.reduce((sum, n) => sum + n, 0);
}

/** A listed person's name and email; a deleted account (no longer among the people read) shows blank. */
function personIn(people: Map<number, UserName>, user_id: number) {
  return people.get(user_id) ?? { user_id, name: '', last_name: '', email: '' };
}

/** Money rows of several sources summed by key, largest total first (then by key, so ties keep one order). */
function mergeMoney(lists: MoneyRow[][]): MoneyRow[] {
  const merged = new Map<number | null, MoneyRow>();
  for (const row of lists.flat()) {
    const seen = merged.get(row.key);
    if (seen) {
      seen.payments += row.payments;
      seen.total += row.total;
    } else merged.set(row.key, { ...row });
  }
  return [...merged.values()]
    .filter((r) => r.payments !== 0 || r.total !== 0)
    .sort((a, b) => b.total - a.total || (a.key ?? -1) - (b.key ?? -1));
}

export type ReportKind = 'income' | 'purchases' | 'sign-ups' | 'instructors';

/** The back office's figures: income, income per product, customers signed up, active and cancelled. */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly money: PurchaseAnalyticsService,
    private readonly users: UsersService,
    private readonly catalog: ProductsService,
    private readonly ledger: WordsService,
    private readonly workers: WorkerPool,
    private readonly conversations: ConversationsService,
    private readonly avatars: AvatarsService,
    private readonly tutorials: TutorialsService,
    private readonly webhooks: PaymentWebhooksService,
    private readonly jobs: JobQueue,
    private readonly figures: AnalyticsFiguresRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Money received in the range by payment method or product: whole days from the summary, the rest from rows. */
  private async moneyBy(range: Range, by: 'payment_method_id' | 'product_id'): Promise<MoneyRow[]> {
    const { days, parts } = splitByDays(range);
    return mergeMoney(
      await Promise.all([
        days ? this.figures.moneyBy(days, by) : [],
        ...parts.map((part) => this.money.income(part, by)),
      ]),
    );
  }

  private signUpCount(range: Range): Promise<number> {
    return sumOverDays(
      range,
      (days) => this.figures.signUpCount(days),
      (part) => this.users.signUpCount(part),
    );
  }

  private wordsGenerated(range: Range): Promise<number> {
    return sumOverDays(
      range,
      (days) => this.figures.wordsGenerated(days),
      (part) => this.ledger.generated(part),
    );
  }

  /** Renewals and open invoices falling due in the range: the summary's whole days, the rest from rows. */
  private async dueTotals(range: Range) {
    const { days, parts } = splitByDays(range);
    const none = { count: 0, total: 0 };
    const add = (a: { count: number; total: number }, b: { count: number; total: number }) => ({
      count: a.count + b.count,
      total: a.total + b.total,
    });
    const [summary, ...rest] = await Promise.all([
      days ? this.figures.dueTotals(days) : { renewal: none, invoice: none },
      ...parts.map(async (part) => ({
        renewal: await this.money.expectedRenewalTotals(part),
        invoice: await this.money.openInvoicesDueTotals(part),
      })),
    ]);
    return rest.reduce(
      (sum, r) => ({ renewal: add(sum.renewal, r.renewal), invoice: add(sum.invoice, r.invoice) }),
      summary,
    );
  }

  /** Every account (the back-office customer list's total), from the sign-ups summary. */
  customerCount(): Promise<number> {
    return this.figures.signUpCount();
  }

  /** customerCount as a read to send with others (UnitOfWork.readTogether). */
  customerCountRead(): StatementRead<number> {
    return this.figures.signUpCountRead();
  }

  /** A report as CSV bytes (written in the worker pool) and its file name. */
  async report(
    kind: ReportKind,
    query: AnalyticsRangeQuery,
  ): Promise<{ data: Uint8Array; filename: string }> {
    const range = analyticsRange(query);
    let rows: (string | number | null)[][];
    if (kind === 'income') {
      const income = await this.income(query);
      rows = [
        ['payment_method', 'payments', 'total_usd'],
        ...income.payment_methods.map((m) => [m.name ?? '', m.payments, dollars(m.total)]),
        ['total', income.total_payments, dollars(income.total_income)],
      ];
    } else if (kind === 'purchases') {
      const products = await this.products(query);
      rows = [
        ['product_id', 'name', 'purchases', 'total_usd'],
        ...products.products.map((p) => [p.product_id, p.name, p.purchases, dollars(p.total)]),
      ];
    } else if (kind === 'instructors') {
      const usage = await this.avatarUsage(range, SIGN_UPS_REPORT_LIMIT);
      rows = [
        ['avatar_id', 'name', 'public', 'conversations', 'users'],
        ...usage.rows.map((a) => [
          a.avatar_id,
          a.name,
          a.public === null ? '' : a.public ? 'yes' : 'no',
          a.conversations,
          a.users,
        ]),
      ];
    } else {
      const signUps = await this.users.signUps(range, SIGN_UPS_REPORT_LIMIT);
      rows = [
        ['user_id', 'name', 'last_name', 'email', 'signed_up'],
        ...signUps.rows.map((u) => [u.user_id, u.name, u.last_name, u.email, u.createdAt.toISOString()]),
      ];
    }
    let out: ReportOutput;
    try {
      out = await this.workers.run<ReportInput, ReportOutput>(
        REPORT_TASK,
        { rows },
        { timeoutMs: REPORT_TIMEOUT_MS },
      );
    } catch (err) {
      if (!(err instanceof WorkerTaskFailed)) throw err;
      throw new Error(`The ${kind} report failed: ${err.message}`);
    }
    return { data: out.data, filename: `${kind}-${day(range.from)}-${day(range.to)}.csv` };
  }

  /**
   * Identical calls that arrive together share one computation, never one that began before they arrived (see
   * FreshSharedReads): a back office opened by many staff at once, or one reloaded, costs the database about two
   * computations, and every answer is as fresh as its own would be.
   */
  private readonly shared = new FreshSharedReads();

  private sharedOver<T>(call: string, query: AnalyticsRangeQuery, compute: (range: Range) => Promise<T>) {
    const range = analyticsRange(query);
    return this.shared.read(`${call} ${range.from.toISOString()} ${range.to.toISOString()}`, () =>
      compute(range),
    );
  }

  /** Today's and this month's figures (UTC), and what needs attention now (as of when the computation starts). */
  dashboard(): Promise<DashboardResponse> {
    return this.shared.read('dashboard', () => this.dashboardAt(new Date()));
  }

  private async dashboardAt(now: Date): Promise<DashboardResponse> {
    const today = {
      from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())),
      to: now,
    };
    const month = { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), to: now };
    // Up to now, plus a moment: rows written in this same millisecond count too.
    today.to = month.to = new Date(now.getTime() + 1);
    // Today from the indexed rows; the month is its whole days before today (the summaries) plus today. Failed
    // payments are few: counted over the rows for the month, today's among them.
    const none = { sign_ups: 0, income: 0, payments: 0, words: 0 };
    const [
      signUps,
      income,
      words,
      failed,
      before,
      active_subscriptions,
      pending_invoices,
      webhook_failures,
      failed_jobs,
    ] = await Promise.all([
      this.users.signUpCount(today),
      this.money.income(today, 'payment_method_id'),
      this.ledger.generated(today),
      this.money.failedPayments(month, today.from),
      month.from < today.from ? this.figures.dayTotals({ from: day(month.from), to: day(today.from) }) : none,
      this.figures.counter('running_subscriptions'),
      this.money.pendingInvoices(),
      this.webhooks.failedEvents(new Date(now.getTime() - WEBHOOK_FAILURES_DAYS * 86_400_000)),
      this.jobs.failedByQueue(),
    ]);
    const d = {
      sign_ups: signUps,
      income: income.reduce((sum, r) => sum + r.total, 0),
      payments: income.reduce((sum, r) => sum + r.payments, 0),
      words,
      failed: failed.since,
    };
    const m = {
      sign_ups: before.sign_ups + d.sign_ups,
      income: before.income + d.income,
      payments: before.payments + d.payments,
      words: before.words + d.words,
      failed: failed.all,
    };
    return {
      sign_ups: { today: d.sign_ups, month: m.sign_ups },
      income: { today: d.income, month: m.income },
      payments: { today: d.payments, month: m.payments },
      words_generated: { today: d.words, month: m.words },
      failed_payments: { today: d.failed, month: m.failed },
      active_subscriptions,
      pending_invoices,
      webhook_failures,
      failed_jobs,
    };
  }

  words(query: AnalyticsRangeQuery): Promise<WordsAnalyticsResponse> {
    return this.sharedOver('words', query, (range) => this.wordsOver(range));
  }

  private async wordsOver(range: Range): Promise<WordsAnalyticsResponse> {
    return { start_date: range.from, end_date: range.to, words: await this.wordsGenerated(range) };
  }

  /**
   * Income, payments, sign-ups and words generated per calendar month of the range: the whole days of every month
   * from the summaries in one statement, the parts of a day at the range's ends (each within one month) from the
   * rows.
   */
  monthly(query: AnalyticsRangeQuery): Promise<MonthlyAnalyticsResponse> {
    return this.sharedOver('monthly', query, (range) => this.monthlyOver(range));
  }

  private async monthlyOver(range: Range): Promise<MonthlyAnalyticsResponse> {
    const months = monthsOf(range);
    if (months.length > MONTHLY_MAX_MONTHS)
      throw badInput(`The monthly figures cover at most ${MONTHLY_MAX_MONTHS} months.`, 'invalid_date_range');
    const { days, parts } = splitByDays(range);
    const [whole, ...partTotals] = await Promise.all([
      days ? this.figures.monthTotals(days) : new Map<string, never>(),
      ...parts.map(async (part) => {
        const [income, sign_ups, words] = await Promise.all([
          this.money.income(part, 'payment_method_id'),
          this.users.signUpCount(part),
          this.ledger.generated(part),
        ]);
        return {
          month: part.from.toISOString().slice(0, 7),
          sign_ups,
          income: income.reduce((sum, r) => sum + r.total, 0),
          payments: income.reduce((sum, r) => sum + r.payments, 0),
          words,
        };
      }),
    ]);
    const rows = months.map(({ month }) => {
      const row = { month, income: 0, payments: 0, sign_ups: 0, words: 0 };
      for (const t of [whole.get(month), ...partTotals.filter((p) => p.month === month)]) {
        if (!t) continue;
        row.income += t.income;
        row.payments += t.payments;
        row.sign_ups += t.sign_ups;
        row.words += t.words;
      }
      return row;
    });
    return { start_date: range.from, end_date: range.to, months: rows };
  }

  income(query: AnalyticsRangeQuery): Promise<IncomeResponse> {
    return this.sharedOver('income', query, (range) => this.incomeOver(range));
  }

  private async incomeOver(range: Range): Promise<IncomeResponse> {
    const rows = await this.moneyBy(range, 'payment_method_id');
    return {
      start_date: range.from,
      end_date: range.to,
      total_income: rows.reduce((sum, r) => sum + r.total, 0),
      total_payments: rows.reduce((sum, r) => sum + r.payments, 0),
      payment_methods: rows.map((r) => ({
        payment_method_id: r.key,
        name: PAYMENT_METHODS.find((m) => m.payment_method_id === r.key)?.name ?? null,
        payments: r.payments,
        total: r.total,
      })),
    };
  }

  products(query: AnalyticsRangeQuery): Promise<ProductsIncomeResponse> {
    return this.sharedOver('products', query, (range) => this.productsOver(range));
  }

  private async productsOver(range: Range): Promise<ProductsIncomeResponse> {
    const rows = await this.moneyBy(range, 'product_id');
    const names = await this.catalog.names(rows.map((r) => r.key).filter((k): k is number => k !== null));
    return {
      start_date: range.from,
      end_date: range.to,
      products: rows.map((r) => ({
        product_id: r.key,
        name: (r.key !== null && names.get(r.key)) || `#${r.key}`,
        purchases: r.payments,
        total: r.total,
      })),
      total: rows.reduce((sum, r) => sum + r.total, 0),
    };
  }

  customers(query: AnalyticsRangeQuery): Promise<CustomersAnalyticsResponse> {
    return this.sharedOver('customers', query, (range) => this.customersOver(range));
  }

  /** How many signed up, held a running purchase and cancelled: the summaries, and the rows of part-days. */
  private async customersOver(range: Range): Promise<CustomersAnalyticsResponse> {
    const { days, parts } = splitByDays(range);
    const [[counts], partial] = await Promise.all([
      this.uow.readTogether([this.figures.customerCountsRead(range, days)] as const),
      Promise.all(
        parts.map(async (part) => ({
          sign_ups: await this.users.signUpCount(part),
          cancellations: await this.money.cancellationCount(part),
        })),
      ),
    ]);
    return {
      start_date: range.from,
      end_date: range.to,
      sign_ups: { count: partial.reduce((sum, p) => sum + p.sign_ups, counts.sign_ups) },
      active: { count: counts.active },
      cancelled: { count: partial.reduce((sum, p) => sum + p.cancellations, counts.cancellations) },
    };
  }

  /**
   * One page of a customers card's table, newest first: the accounts created in the range, the holders of a
   * running purchase in it (by their newest such purchase), or the purchases cancelled in it with the reason.
   */
  customersPage(group: CustomerGroup, query: CustomersPageQuery): Promise<CustomersPageResponse> {
    const page = toPage(query, ANALYTICS_CUSTOMERS_PAGE_SIZE);
    return this.sharedOver(`customers ${group} ${page.page} ${page.limit}`, query, async (range) => ({
      start_date: range.from,
      end_date: range.to,
      customers: await this.customersOf(group, range, page),
      page: page.page,
      limit: page.limit,
    }));
  }

  private async customersOf(group: CustomerGroup, range: Range, page: Page): Promise<AnalyticsCustomerDto[]> {
    if (group === 'sign_ups') {
      const rows = await this.users.newestSignUps(range, page.limit, page.skip);
      return rows.map((u) => ({
        user_id: u.user_id,
        name: u.name,
        last_name: u.last_name,
        email: u.email,
        date: u.createdAt,
      }));
    }
    // A deleted customer's purchases stay for the books without an owner; the tables list people only.
    const owned = <T extends { user_id: number | null }>(rows: T[]) =>
      rows.filter((r): r is T & { user_id: number } => r.user_id !== null);
    if (group === 'active') {
      const holders = owned(
        (await this.money.activeCustomers(range, page.skip + page.limit)).slice(page.skip),
      );
      const people = await this.users.summaries(holders.map((r) => r.user_id));
      return holders.map((r) => ({ ...personIn(people, r.user_id), date: r.since }));
    }
    const cancelled = owned(await this.money.cancellations(range, page.limit, page.skip));
    // The names of the people and products listed: two reads in one round trip.
    const [people, productNames] = await this.uow.readTogether([
      this.users.summariesRead(cancelled.map((r) => r.user_id)),
      this.catalog.namesRead(cancelled.map((r) => r.product_id)),
    ] as const);
    return cancelled.map((p) => ({
      ...personIn(people, p.user_id),
      date: p.cancelled_at!,
      cancel_reason: p.cancel_reason,
      product: productNames.get(p.product_id) ?? null,
    }));
  }

  /** Subscriptions that began with a free trial in the range, per product, and how many paid or cancelled since. */
  freeTrials(query: AnalyticsRangeQuery): Promise<FreeTrialsResponse> {
    return this.sharedOver('freeTrials', query, (range) => this.freeTrialsOver(range));
  }

  private async freeTrialsOver(range: Range): Promise<FreeTrialsResponse> {
    const rows = await this.money.freeTrials(range);
    const names = await this.catalog.names(rows.map((r) => r.product_id));
    const sum = (key: 'started' | 'converted' | 'cancelled') => rows.reduce((total, r) => total + r[key], 0);
    return {
      start_date: range.from,
      end_date: range.to,
      started: sum('started'),
      converted: sum('converted'),
      cancelled: sum('cancelled'),
      products: rows.map((r) => ({ ...r, name: names.get(r.product_id) ?? `#${r.product_id}` })),
    };
  }

  /** Instructors here are the avatars: conversations opened with each in the range and their users. */
  instructors(query: AnalyticsRangeQuery): Promise<InstructorsResponse> {
    return this.sharedOver('instructors', query, (range) => this.instructorsOver(range));
  }

  private async instructorsOver(range: Range): Promise<InstructorsResponse> {
    const [usage, avatars_created] = await Promise.all([
      this.avatarUsage(range, ANALYTICS_TABLE_LIMIT),
      this.avatars.createdCount(range),
    ]);
    return {
      start_date: range.from,
      end_date: range.to,
      avatars_created,
      conversations: usage.conversations,
      avatars: usage.rows,
    };
  }

  private async avatarUsage(
    range: { from: Date; to: Date },
    limit: number,
  ): Promise<{ conversations: number; rows: InstructorUsageDto[] }> {
    const usage = await this.conversations.avatarUsage(range, limit);
    const avatars = await this.avatars.summaries(usage.rows.map((u) => u.avatar_id));
    return {
      conversations: usage.conversations,
      rows: usage.rows.map((u) => {
        const avatar = avatars.get(u.avatar_id);
        return {
          avatar_id: u.avatar_id,
          name: avatar?.name ?? `#${u.avatar_id}`,
          public: avatar ? avatar.public : null,
          conversations: u.conversations,
          users: u.users,
        };
      }),
    };
  }

  /** Reservations here are the money expected in the range: subscription renewals and open invoices falling due. */
  reservations(query: AnalyticsRangeQuery): Promise<ReservationsResponse> {
    return this.sharedOver('reservations', query, (range) => this.reservationsOver(range));
  }

  private async reservationsOver(range: Range): Promise<ReservationsResponse> {
    const [totals, renewalRows, invoiceRows] = await Promise.all([
      this.dueTotals(range),
      this.money.expectedRenewals(range, ANALYTICS_TABLE_LIMIT),
      this.money.openInvoicesDue(range, ANALYTICS_TABLE_LIMIT),
    ]);
    const renewals = { ...totals.renewal, rows: renewalRows };
    const invoices = { ...totals.invoice, rows: invoiceRows };
    const [people, productNames] = await Promise.all([
      this.users.summaries(
        [...renewals.rows.map((r) => r.user_id), ...invoices.rows.map((i) => i.user_id)].filter(
          (id): id is number => id !== null,
        ),
      ),
      this.catalog.names(renewals.rows.map((r) => r.product_id)),
    ]);
    // A deleted customer's purchases and invoices stay for the books without an owner: null.
    const customer = (user_id: number | null) => {
      if (user_id === null) return null;
      const person = people.get(user_id);
      return person ? `${person.name} ${person.last_name}`.trim() || person.email : `#${user_id}`;
    };
    return {
      start_date: range.from,
      end_date: range.to,
      expected_total: renewals.total + invoices.total,
      renewals: {
        count: renewals.count,
        total: renewals.total,
        items: renewals.rows.map((p) => ({
          purchase_id: p.purchase_id,
          user_id: p.user_id,
          customer: customer(p.user_id),
          product: productNames.get(p.product_id) ?? `#${p.product_id}`,
          amount: p.amount,
          date: p.current_period_end!,
        })),
      },
      open_invoices: {
        count: invoices.count,
        total: invoices.total,
        items: invoices.rows.map((i) => ({
          invoice_id: i.invoice_id,
          user_id: i.user_id,
          customer: customer(i.user_id),
          description: i.description,
          amount: i.amount,
          date: i.expiration_date!,
        })),
      },
    };
  }

  /** Videos here are the tutorials: plays of each in the range. */
  videos(query: AnalyticsRangeQuery): Promise<VideosResponse> {
    return this.sharedOver('videos', query, (range) => this.videosOver(range));
  }

  private async videosOver(range: Range): Promise<VideosResponse> {
    const tutorials = await this.tutorials.playCounts(range);
    return {
      start_date: range.from,
      end_date: range.to,
      plays: tutorials.reduce((total, t) => total + t.plays, 0),
      tutorials,
    };
  }
}
