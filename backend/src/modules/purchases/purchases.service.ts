import { forwardRef, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ADMIN_PURCHASES_PAGE_SIZE,
  BILLING_MESSAGES,
  isPaymentMethodId,
  PAYMENT_METHOD_IDS,
  PURCHASE_FINAL_STATUSES,
  type PurchaseStoredStatus,
} from '@avatar-studio/contracts';
import { hasStaffRole } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { badInput, conflict, DomainError, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { JobQueue } from '../../common/jobs/job-queue';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditService } from '../audit/audit.service';
import { DiscountsService, type DiscountQuote } from '../discounts/discounts.service';
import { chargePrice } from '../products/products-rules';
import { ProductsService, type ProductView } from '../products/products.service';
import { UsersService } from '../users/users.service';
import { WordsService } from '../words/words.service';
import type { Invoice } from './invoice.entity';
import { InvoicesRepository, type InvoiceFields } from './invoices.repository';
import type { ProviderCancel } from './provider-cancel.port';
import {
  accessEnd,
  cancelReasonValid,
  statusesOfGroup,
  grantsAccess,
  limitBroken,
  trialEnd,
  wordsToGrant,
} from './purchase-rules';
import type { PaymentProvider, Purchase } from './purchase.entity';
import { PurchasesRepository, type PurchaseFields, type PurchaseReference } from './purchases.repository';

export interface PurchaseReferences {
  stripe_customer_id: string;
  stripe_payment_intent_id: string;
  stripe_subscription_id: string;
  paypal_order_id: string;
  paypal_subscription_id: string;
  paypal_plan_id: string;
  subscription_id: string;
  payment_processor_id: string;
  current_period_end: Date;
}

export interface CreatePendingInput {
  user_id: number;
  product: ProductView;
  payment_method_id: number;
  provider: PaymentProvider;
  discount_code?: string | null;
  status?: 'pending' | 'processing';
  references?: Partial<PurchaseReferences>;
  /**
   * An open invoice staff issued to this user (a contract): the purchase is charged its amount (no discount) and
   * paying the purchase pays the invoice.
   */
  contract_invoice_id?: number | null;
  /** Staff-made purchases: gift flag, amount and expiry chosen by staff. */
  is_gift?: boolean;
  amount?: number;
  expiration_days?: number | null;
  created_by?: number | null;
}

export interface PaymentFacts {
  amount_paid?: number;
  paid_at?: Date;
  payment_processor_id?: string;
  current_period_end?: Date | null;
  status?: 'active' | 'completed';
  references?: Partial<PurchaseReferences>;
}

/**
 * Named by a type alias and injected by forwardRef: users import organizations, whose member usage imports this
 * service, so UsersService may still be loading when this file's decorator metadata is read.
 */
type UsersServiceRef = UsersService;

/** Where the purchase's words are in the ledger: its grants are `purchase:{id}` and `purchase:{id}:…`. */
export const GRANT_SOURCE = 'purchase';
const grantReference = (purchase_id: number) => `purchase:${purchase_id}`;
/** The grant of one renewed period, named by the period's end. */
const periodReference = (purchase_id: number, period_end: Date) =>
  `${grantReference(purchase_id)}:period:${period_end.getTime()}`;

/** Ends a revoked purchase's subscription at its provider; the job carries ids only (keys are read when it runs). */
export const PROVIDER_STOP_JOB = 'purchase-provider-stop';
/** 2 s doubling over ten tries (about 17 minutes): rides out a provider's outage. */
export const PROVIDER_STOP_RETRY = { attempts: 10, backoffMs: 2_000 };
export interface ProviderStopJob {
  purchase_id: number;
  /** The staff member who revoked it, for the audit record. */
  requested_by: number | null;
}

const PURCHASES_PAGE_DEFAULT = 20;
/** Statuses of a purchase whose payment was received (an invoice tied to one is not a contract to pay). */
const PAID_BEFORE: PurchaseStoredStatus[] = ['active', 'completed', 'cancelled', 'revoked'];
const USER_SEARCH_LIMIT = 200;
const soldOut = () => new DomainError(412, 'product_sold_out', BILLING_MESSAGES.productSoldOut);
const limitReached = () =>
  new DomainError(409, 'purchase_limit_reached', BILLING_MESSAGES.purchaseLimitReached);
const purchaseNotFound = () => notFound('Purchase', 'purchase_not_found');

/**
 * Purchases and what follows from their statuses: the limits of a product (checked under its row lock), words
 * granted through the ledger, the user's lifetime value moved in the payment's transaction, and every status
 * change in the audit log. The payment side calls these; staff and customers reach them through the routes.
 */
@Injectable()
export class PurchasesService implements OnModuleInit {
  private readonly logger = new Logger('Purchases');
  private readonly providerCancels = new Map<PaymentProvider, ProviderCancel>();

  constructor(
    private readonly purchases: PurchasesRepository,
    private readonly invoices: InvoicesRepository,
    private readonly products: ProductsService,
    private readonly discounts: DiscountsService,
    private readonly words: WordsService,
    @Inject(forwardRef(() => UsersService)) private readonly users: UsersServiceRef,
    private readonly audit: AuditService,
    private readonly transactions: UnitOfWork,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register<ProviderStopJob>(PROVIDER_STOP_JOB, (job, attempt) =>
      this.stopAtProvider(job, attempt >= PROVIDER_STOP_RETRY.attempts),
    );
    // A customer deleting their own account with a subscription that still renews would keep being charged.
    this.users.onOwnDeletion(async (user_id, tx) => {
      if (await this.hasRenewingSubscription(user_id, tx))
        throw conflict(BILLING_MESSAGES.ownSubscriptionRenewing, 'subscription_renewing');
    });
  }

  /** The payment side registers how a provider's subscription stops renewing. */
  useProviderCancel(provider: PaymentProvider, impl: ProviderCancel): void {
    this.providerCancels.set(provider, impl);
  }

  /** Whether the user has a subscription that still renews (it must be cancelled before the account goes). */
  hasRenewingSubscription(user_id: number, manager?: EntityManager): Promise<boolean> {
    return this.purchases.hasRenewing(user_id, manager);
  }

  /**
   * A customer is being deleted: their purchases and invoices stay for the books without an owner, in the
   * caller's transaction so they are anonymised exactly when the account goes.
   */
  async anonymiseOwner(
    user_id: number,
    manager: EntityManager,
  ): Promise<{ purchases: number; invoices: number }> {
    const purchases = await this.purchases.anonymiseOwner(user_id, manager);
    const invoices = await this.invoices.anonymiseOwner(user_id, manager);
    return { purchases, invoices };
  }

  /**
   * Cents each user paid in the organization within [from, to): its purchases when paid (less refunds) and
   * their renewals; users who paid nothing are absent. The organization's user list shows it as LTV.
   */
  async paidInOrganization(
    userIds: number[],
    organizationId: number,
    range: { from: Date; to: Date },
  ): Promise<Map<number, number>> {
    const [purchases, renewals] = await Promise.all([
      this.purchases.paidInRange(userIds, organizationId, range.from, range.to),
      this.invoices.paidInRange(userIds, organizationId, range.from, range.to),
    ]);
    const total = new Map(purchases);
    for (const [user_id, cents] of renewals) total.set(user_id, (total.get(user_id) ?? 0) + cents);
    return total;
  }

  findById(purchase_id: number, manager?: EntityManager): Promise<Purchase | null> {
    return this.purchases.findById(purchase_id, manager);
  }

  findByReference(column: PurchaseReference, value: string, manager?: EntityManager, lock = false) {
    return this.purchases.findByReference(column, value, manager, lock);
  }

  /** The caller's own purchase, or any for staff; 404 otherwise. */
  async getVisible(purchase_id: number, principal: Principal): Promise<Purchase> {
    const purchase = await this.purchases.findById(purchase_id);
    if (!purchase) throw purchaseNotFound();
    if (purchase.user_id !== principal.user_id && !hasStaffRole(principal.staffRole, 'manager'))
      throw purchaseNotFound();
    return purchase;
  }

  /**
   * A new purchase waiting for its payment: the product's row is locked first, so its limits are counted and the
   * purchase inserted by one buyer at a time (409 per user, 412 overall); the amount is computed here.
   */
  async createPending(
    input: CreatePendingInput,
    manager?: EntityManager,
  ): Promise<{ purchase: Purchase; amount: number; discount: DiscountQuote | null }> {
    if (!isPaymentMethodId(input.payment_method_id))
      throw badInput(BILLING_MESSAGES.invalidPaymentMethod, 'invalid_payment_method');
    return this.inTransaction(manager, async (m) => {
      const product = await this.products.lockForPurchase(input.product.product_id, m);
      if (!product) throw notFound('Product', 'product_not_found');
      const [byUser, overall] = await Promise.all([
        product.limit_per_user === null
          ? 0
          : this.purchases.countHolding(product.product_id, input.user_id, m),
        product.user_limit === null ? 0 : this.purchases.countHolding(product.product_id, null, m),
      ]);
      const broken = limitBroken(product, { byUser, overall });
      if (broken === 'per_user') throw limitReached();
      if (broken === 'overall') throw soldOut();
      const contract = input.contract_invoice_id
        ? await this.contractInvoice(input.contract_invoice_id, input.user_id, input.discount_code, m)
        : null;
      const price = contract ? contract.amount : (input.amount ?? chargePrice(product));
      const purchase = await this.purchases.insert(
        {
          user_id: input.user_id,
          product_id: product.product_id,
          organization_id: product.organization_id,
          status: input.status ?? 'pending',
          amount: price,
          currency: product.currency,
          expiration_days:
            input.expiration_days !== undefined ? input.expiration_days : product.expiration_days,
          is_gift: input.is_gift ?? false,
          payment_method_id: input.payment_method_id,
          subscription_interval: product.is_subscription ? product.subscription_interval : null,
          subscription_period: product.is_subscription ? product.subscription_period : null,
          free_trial_length: product.free_trial_period ? product.free_trial_length : null,
          provider: input.provider,
          created_by: input.created_by ?? null,
          ...(input.references ?? {}),
        },
        m,
      );
      if (contract) await this.invoices.update(contract.invoice_id, { purchase_id: purchase.purchase_id }, m);
      let discount: DiscountQuote | null = null;
      if (input.discount_code?.trim()) {
        discount = await this.discounts.redeem(
          input.discount_code,
          product,
          input.user_id,
          purchase.purchase_id,
          m,
        );
        await this.purchases.update(
          purchase.purchase_id,
          { amount: discount.discounted_price, discount_id: discount.discount_id, discount: discount.code },
          m,
        );
        purchase.amount = discount.discounted_price;
        purchase.discount_id = discount.discount_id;
        purchase.discount = discount.code;
      }
      return { purchase, amount: purchase.amount, discount };
    });
  }

  async attachReferences(
    purchase_id: number,
    refs: Partial<PurchaseReferences>,
    manager?: EntityManager,
  ): Promise<void> {
    if (Object.keys(refs).length) await this.purchases.update(purchase_id, refs, manager);
  }

  /**
   * Paid: active (subscriptions) or completed (one-off), words granted to expire with the purchase, lifetime
   * value raised, all in one transaction. Already granting: unchanged; cancelled or revoked: never reactivated.
   */
  async activate(purchase_id: number, facts: PaymentFacts = {}, manager?: EntityManager): Promise<Purchase> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      if (grantsAccess(purchase.status) || purchase.status === 'cancelled' || purchase.status === 'revoked')
        return purchase;
      const product = (await this.products.findById(purchase.product_id, m))!;
      const to = facts.status ?? (product.is_subscription ? 'active' : 'completed');
      const now = new Date();
      const expires_at = accessEnd(product, purchase, now, facts.current_period_end);
      const amount = facts.amount_paid ?? purchase.amount;
      await this.grantWords(purchase, product, expires_at, now, m);
      await this.users.addLifetimeValue(purchase.user_id, amount, m);
      const changes: Partial<PurchaseFields> = {
        status: to,
        amount,
        expires_at,
        paid_at: facts.paid_at ?? now,
        ...(product.is_subscription ? { current_period_end: expires_at } : {}),
        ...(facts.payment_processor_id ? { payment_processor_id: facts.payment_processor_id } : {}),
        ...(facts.references ?? {}),
      };
      await this.purchases.update(purchase_id, changes, m);
      await this.recordStatus(purchase, to, null, m);
      await this.payIssuedInvoices({ ...purchase, ...changes } as Purchase, m);
      return { ...purchase, ...changes } as Purchase;
    });
  }

  /** The payment failed: pending or processing becomes failed and the discount's use is given back. */
  async markFailed(purchase_id: number, reason: string | null, manager?: EntityManager): Promise<Purchase> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      if (purchase.status !== 'pending' && purchase.status !== 'processing') return purchase;
      if (purchase.discount_id) await this.discounts.release(purchase.discount_id, purchase_id, m);
      await this.purchases.update(purchase_id, { status: 'failed' }, m);
      await this.recordStatus(purchase, 'failed', reason, m);
      return { ...purchase, status: 'failed' };
    });
  }

  /**
   * A renewal was paid: a completed invoice for the period (once per provider invoice), the period and access
   * moved forward, the period's words granted, lifetime value raised. A renewal whose payment failed first and was
   * paid later (a retry) completes its failed invoice, in whichever order the two events arrive. False when
   * nothing changed.
   */
  async renew(
    purchase_id: number,
    renewal: {
      period_end: Date;
      amount: number;
      stripe_invoice_id?: string;
      stripe_payment_intent_id?: string | null;
      paypal_capture_id?: string;
      payment_method_id?: number;
      paid_at?: Date;
    },
    manager?: EntityManager,
  ): Promise<boolean> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      // A purchase that ended (cancelled, revoked) gains no period or words from a renewal charged before it
      // ended and arriving late, but the money taken is recorded, so the lifetime value does not depend on the
      // order events arrive in. One never paid (failed) records nothing.
      const granting = grantsAccess(purchase.status);
      if (!granting && !PURCHASE_FINAL_STATUSES.includes(purchase.status)) return false;
      const failed = await this.unpaidRenewal(purchase_id, renewal, m);
      if (failed === 'paid') return false;
      // A renewal known by its provider id is recorded once, whatever order the webhooks arrive in (a later
      // period may come first); without one, only a period past the current end counts.
      const known = Boolean(renewal.stripe_invoice_id || renewal.paypal_capture_id);
      if (!known && purchase.current_period_end && renewal.period_end <= purchase.current_period_end)
        return false;
      const product = (await this.products.findById(purchase.product_id, m))!;
      const paid: Partial<InvoiceFields> = {
        amount: renewal.amount,
        payment_method_id: renewal.payment_method_id ?? purchase.payment_method_id,
        status: 'completed',
        description: `${product.name}: renewal`,
        stripe_invoice_id: renewal.stripe_invoice_id ?? null,
        stripe_payment_intent_id: renewal.stripe_payment_intent_id ?? null,
        paypal_capture_id: renewal.paypal_capture_id ?? null,
        period_end: renewal.period_end,
        paid_at: renewal.paid_at ?? new Date(),
      };
      if (failed) {
        await this.invoices.update(failed.invoice_id, paid, m);
        await this.audit.record(
          'invoice.status_changed',
          {
            target_user_id: purchase.user_id,
            target_type: 'invoice',
            target_id: failed.invoice_id,
            organization_id: purchase.organization_id,
            details: { from: failed.status, to: 'completed', reason: 'The renewal was paid on a retry.' },
          },
          m,
        );
      } else
        await this.invoices.insert(
          { ...paid, purchase_id, user_id: purchase.user_id, currency: purchase.currency },
          m,
        );
      const grant = wordsToGrant(product, false);
      if (granting && purchase.user_id !== null && renewal.period_end.getTime() > Date.now())
        await this.words.grant(
          purchase.user_id,
          {
            ...grant,
            source: GRANT_SOURCE,
            reference: periodReference(purchase_id, renewal.period_end),
            expires_at: renewal.period_end,
          },
          m,
        );
      await this.users.addLifetimeValue(purchase.user_id, renewal.amount, m);
      // The period end only moves forward.
      if (granting && (!purchase.current_period_end || renewal.period_end > purchase.current_period_end))
        await this.purchases.update(
          purchase_id,
          { current_period_end: renewal.period_end, expires_at: renewal.period_end },
          m,
        );
      return true;
    });
  }

  /**
   * The invoice row a renewal payment settles, if one exists: 'paid' when it is recorded as paid already, the
   * failed (or pending) row otherwise. Stripe's is found by its invoice id; PayPal's failed renewals carry no id,
   * so a PayPal payment settles the oldest one still failed.
   */
  private async unpaidRenewal(
    purchase_id: number,
    renewal: { stripe_invoice_id?: string; paypal_capture_id?: string },
    m: EntityManager,
  ): Promise<Invoice | 'paid' | null> {
    if (renewal.stripe_invoice_id) {
      const row = await this.invoices.findByStripeInvoiceId(renewal.stripe_invoice_id, m);
      if (!row) return null;
      return row.status === 'completed' || row.status === 'active' ? 'paid' : row;
    }
    if (renewal.paypal_capture_id) {
      if (await this.invoices.findByPayPalCaptureId(renewal.paypal_capture_id, m)) return 'paid';
      return this.invoices.findFailedRenewal(purchase_id, m);
    }
    return null;
  }

  /**
   * A renewal's payment failed: a failed invoice is kept (once per provider invoice); access runs to its end.
   * Nothing is recorded when that invoice is already paid (its retry's payment arrived first) or, for PayPal,
   * when a renewal was paid after the failure. True when a failed invoice was recorded.
   */
  async renewalFailed(
    purchase_id: number,
    failure: { amount: number; stripe_invoice_id?: string; period_end?: Date; failed_at?: Date },
    manager?: EntityManager,
  ): Promise<boolean> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      if (
        failure.stripe_invoice_id &&
        (await this.invoices.findByStripeInvoiceId(failure.stripe_invoice_id, m))
      )
        return false;
      // PayPal's failures carry no invoice id: one failed renewal waits for a payment at a time, and none is
      // recorded when a renewal was paid after the failure (its later success arrived first).
      if (!failure.stripe_invoice_id) {
        if (await this.invoices.findFailedRenewal(purchase_id, m)) return false;
        if (failure.failed_at && (await this.invoices.paidRenewalSince(purchase_id, failure.failed_at, m)))
          return false;
      }
      await this.invoices.insert(
        {
          purchase_id,
          user_id: purchase.user_id,
          amount: failure.amount,
          currency: purchase.currency,
          payment_method_id: purchase.payment_method_id,
          status: 'failed',
          description: 'Renewal payment failed',
          stripe_invoice_id: failure.stripe_invoice_id ?? null,
          period_end: failure.period_end ?? null,
        },
        m,
      );
      return true;
    });
  }

  /** No further charges; access and words stay until the end of what was paid. Never undone. */
  async cancelAtPeriodEnd(
    purchase_id: number,
    input: { reason: string | null; period_end?: Date | null },
    manager?: EntityManager,
  ): Promise<Purchase> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      if (purchase.status === 'cancelled' || purchase.status === 'revoked') return purchase;
      const changes: Partial<PurchaseFields> = {
        status: 'cancelled',
        cancel_at_period_end: true,
        cancelled_at: new Date(),
        cancel_reason: input.reason ?? purchase.cancel_reason,
        ...(input.period_end ? { current_period_end: input.period_end, expires_at: input.period_end } : {}),
      };
      await this.purchases.update(purchase_id, changes, m);
      await this.recordStatus(purchase, 'cancelled', input.reason, m);
      return { ...purchase, ...changes } as Purchase;
    });
  }

  /** The provider ended the subscription: cancelled, and its words end at `ended_at`. */
  async subscriptionEnded(purchase_id: number, ended_at: Date, manager?: EntityManager): Promise<Purchase> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      if (purchase.status === 'revoked') return purchase;
      const end = purchase.expires_at && purchase.expires_at < ended_at ? purchase.expires_at : ended_at;
      if (purchase.user_id !== null)
        await this.words.endGrants(purchase.user_id, GRANT_SOURCE, grantReference(purchase_id), m, end);
      const changes: Partial<PurchaseFields> = {
        status: 'cancelled',
        cancel_at_period_end: true,
        cancelled_at: purchase.cancelled_at ?? new Date(),
        expires_at: end,
      };
      await this.purchases.update(purchase_id, changes, m);
      if (purchase.status !== 'cancelled')
        await this.recordStatus(purchase, 'cancelled', 'subscription ended', m);
      return { ...purchase, ...changes } as Purchase;
    });
  }

  /** Access ends now: revoked, and the purchase's words left are gone. */
  async revoke(purchase_id: number, reason: string | null, manager?: EntityManager): Promise<Purchase> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      if (purchase.status === 'revoked') return purchase;
      return this.revokeLocked(purchase, reason, m);
    });
  }

  /**
   * Money given back of the first payment: the lifetime value shrinks in the same transaction; a full refund also
   * revokes. The amount is capped at what is left to refund, so a repeated event gives nothing back twice.
   */
  async refund(
    purchase_id: number,
    input: { amount: number; reason: string | null; reference?: string },
    manager?: EntityManager,
  ): Promise<Purchase> {
    return this.inTransaction(manager, async (m) => {
      const purchase = await this.lockPurchase(purchase_id, m);
      const amount = Math.max(0, Math.min(input.amount, purchase.amount - purchase.refunded_amount));
      if (amount > 0) {
        const refunded_amount = purchase.refunded_amount + amount;
        await this.purchases.update(purchase_id, { refunded_amount }, m);
        await this.users.addLifetimeValue(purchase.user_id, -amount, m);
        await this.recordRefund(purchase, null, amount, input, m);
        purchase.refunded_amount = refunded_amount;
      }
      if (purchase.refunded_amount >= purchase.amount && purchase.status !== 'revoked')
        return this.revokeLocked(purchase, input.reason ?? 'refunded', m);
      return purchase;
    });
  }

  /**
   * Money given back of one invoice's payment (a subscription's renewal, or an invoice paid by card): its
   * `refunded_amount` and the user's lifetime value move together. `refunded_total` is the provider's running
   * total for the charge (only what is not yet counted is applied, so duplicates and any order agree); `amount`
   * adds to it. Once a renewal is refunded in full, the words of its period are gone (the purchase itself keeps
   * running: the subscription still renews at the provider). Returns the cents applied.
   */
  async refundInvoice(
    invoice_id: number,
    input: { refunded_total?: number; amount?: number; reason: string; reference?: string },
    manager?: EntityManager,
  ): Promise<number> {
    return this.inTransaction(manager, async (m) => {
      const found = await this.invoices.findById(invoice_id, m);
      if (!found) throw notFound('Invoice', 'invoice_not_found');
      // The purchase first, then its invoice: the order renew locks them in.
      const purchase = found.purchase_id ? await this.lockPurchase(found.purchase_id, m) : null;
      const invoice = (await this.invoices.findByIdForUpdate(invoice_id, m))!;
      if (invoice.status !== 'completed' && invoice.status !== 'active') return 0;
      const wanted =
        input.refunded_total !== undefined
          ? input.refunded_total - invoice.refunded_amount
          : (input.amount ?? 0);
      const amount = Math.max(0, Math.min(wanted, invoice.amount - invoice.refunded_amount));
      if (amount === 0) return 0;
      const refunded_amount = invoice.refunded_amount + amount;
      await this.invoices.update(invoice_id, { refunded_amount }, m);
      await this.users.addLifetimeValue(invoice.user_id, -amount, m);
      if (purchase && purchase.user_id !== null && invoice.period_end && refunded_amount >= invoice.amount)
        await this.words.endGrants(
          purchase.user_id,
          GRANT_SOURCE,
          periodReference(purchase.purchase_id, invoice.period_end),
          m,
        );
      if (purchase) await this.recordRefund(purchase, invoice.invoice_id, amount, input, m);
      else
        await this.audit.record(
          'invoice.updated',
          {
            target_user_id: invoice.user_id,
            target_type: 'invoice',
            target_id: invoice_id,
            details: { changed: ['refunded_amount'], amount, reason: input.reason },
          },
          m,
        );
      return amount;
    });
  }

  // ---------------------------------------------------------------- lists

  async listOwn(principal: Principal, query: { page?: number; limit?: number }) {
    const page = toPage(query, PURCHASES_PAGE_DEFAULT);
    const { rows, total } = await this.purchases.pageOwn(principal.user_id, page);
    return { purchases: await this.withNames(rows, false), total, page: page.page, limit: page.limit };
  }

  /** The back office's list: search (purchase id, or name or email), dates, status group, type, product; 12 a page. */
  async listAdmin(query: {
    query?: string;
    page?: number;
    limit?: number;
    start_date?: Date;
    end_date?: Date;
    status?: string;
    type?: string;
    product_id?: number;
    user_id?: number;
  }) {
    if (query.start_date && query.end_date && query.start_date > query.end_date)
      throw badInput('start_date must be on or before end_date.', 'invalid_date_range');
    const page = toPage(query, ADMIN_PURCHASES_PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.purchases.pageAdmin(
      {
        purchase_id: text && /^\d{1,9}$/.test(text) ? Number(text) : undefined,
        user_ids: text ? await this.users.searchIds(text, USER_SEARCH_LIMIT) : undefined,
        from: query.start_date,
        to: query.end_date,
        statuses: statusesOfGroup(query.status),
        type: query.type === 'purchases' || query.type === 'invoices' ? query.type : undefined,
        product_id: query.product_id,
        user_id: query.user_id,
      },
      page,
    );
    return { purchases: await this.withNames(rows, true), total, page: page.page, limit: page.limit };
  }

  async withNames(rows: Purchase[], withUsers: boolean) {
    const [products, users] = await Promise.all([
      this.products.names(rows.map((r) => r.product_id)),
      withUsers ? this.users.summaries(rows.map((r) => r.user_id)) : Promise.resolve(new Map()),
    ]);
    return rows.map((r) => ({
      ...r,
      product: products.has(r.product_id)
        ? { product_id: r.product_id, name: products.get(r.product_id)! }
        : null,
      ...(withUsers ? { user: (r.user_id !== null && users.get(r.user_id)) || null } : {}),
    }));
  }

  // ---------------------------------------------------------------- customer and staff actions

  /**
   * The owner cancels their active subscription: reason of 10+ characters, the provider stops renewing first,
   * then the purchase is cancelled (access until the period's end).
   */
  async cancelOwn(purchase_id: number, principal: Principal, reason: unknown): Promise<Purchase> {
    const purchase = await this.purchases.findById(purchase_id);
    if (!purchase || purchase.user_id !== principal.user_id) throw purchaseNotFound();
    if (!cancelReasonValid(reason))
      throw badInput(BILLING_MESSAGES.cancelReasonRequired, 'cancel_reason_required');
    if (purchase.status !== 'active' || !purchase.subscription_interval)
      throw new DomainError(409, 'purchase_not_cancellable', 'Only an active subscription can be cancelled.');
    const period_end = await this.stopRenewing(purchase);
    return this.cancelAtPeriodEnd(purchase_id, { reason: reason.trim(), period_end });
  }

  /** Staff give access: a purchase made by them (gift or paid by cash/transfer), active at once with its words. */
  async giveAccess(
    principal: Principal,
    input: {
      user_id: number;
      product_id: number;
      gift?: boolean;
      total?: number;
      expiration_days?: number | null;
      payment_method_id?: number;
    },
    status?: 'active' | 'completed' | 'pending',
  ): Promise<Purchase> {
    const user = await this.users.findById(input.user_id);
    if (!user) throw notFound('User', 'user_not_found');
    const product = await this.products.findById(input.product_id);
    if (!product) throw notFound('Product', 'product_not_found');
    const gift = input.gift ?? false;
    const payment_method_id =
      input.payment_method_id ?? (gift ? PAYMENT_METHOD_IDS.gift : PAYMENT_METHOD_IDS.cash);
    return this.transactions.run(async (m) => {
      const { purchase } = await this.createPending(
        {
          user_id: input.user_id,
          product,
          payment_method_id,
          provider: 'manual',
          is_gift: gift,
          amount: input.total ?? 0,
          expiration_days: input.expiration_days ?? product.expiration_days,
          created_by: principal.user_id,
        },
        m,
      );
      await this.audit.record(
        'purchase.created',
        {
          target_user_id: purchase.user_id,
          target_type: 'purchase',
          target_id: purchase.purchase_id,
          details: { product_id: product.product_id, gift, total: purchase.amount, status },
        },
        m,
      );
      if (status === 'pending') return purchase;
      return this.activate(purchase.purchase_id, { amount_paid: purchase.amount, status }, m);
    });
  }

  /**
   * Staff record a purchase (POST /purchases/admin): active or completed (by default active for a subscription,
   * completed for a one-off) grant at once, pending waits.
   */
  async adminCreate(
    principal: Principal,
    input: {
      user_id: number;
      product_id: number;
      amount?: number;
      status?: string;
      payment_method_id?: number;
      expiration_days?: number | null;
      is_gift?: boolean;
    },
  ): Promise<Purchase> {
    const status = input.status;
    if (status !== undefined && status !== 'active' && status !== 'completed' && status !== 'pending')
      throw badInput('A new purchase is active, completed or pending.', 'invalid_status_transition');
    const purchase = await this.giveAccess(
      principal,
      {
        user_id: input.user_id,
        product_id: input.product_id,
        gift: input.is_gift,
        total: input.amount,
        expiration_days: input.expiration_days,
        payment_method_id: input.payment_method_id,
      },
      status,
    );
    return purchase;
  }

  /** Staff change a purchase: its status within the allowed transitions, a cancel reason, an expiry. */
  async adminUpdate(
    principal: Principal,
    input: {
      purchase_id: number;
      status?: string;
      cancel_reason?: string | null;
      expiration_days?: number | null;
      amount?: number;
    },
    allowedStatus: (from: PurchaseStoredStatus, to: string) => string | null,
  ): Promise<Purchase> {
    const before = await this.purchases.findById(input.purchase_id);
    if (!before) throw purchaseNotFound();
    const to = input.status;
    if (to !== undefined && to !== before.status) {
      const error = allowedStatus(before.status, to);
      if (error) throw badInput(error, 'invalid_status_transition');
      if (to === 'cancelled' && before.status !== 'revoked') {
        const period_end = await this.stopRenewing(before);
        await this.cancelAtPeriodEnd(before.purchase_id, { reason: input.cancel_reason ?? null, period_end });
      } else if (to === 'revoked') {
        await this.revoke(before.purchase_id, input.cancel_reason ?? null);
        await this.queueProviderStop(before, principal);
      } else if (to === 'active' || to === 'completed') {
        await this.activate(before.purchase_id, { status: to });
      } else {
        // Back to pending (or from revoked to cancelled): the status only; the words follow their own expiry.
        await this.transactions.run(async (m) => {
          const locked = await this.lockPurchase(before.purchase_id, m);
          await this.purchases.update(locked.purchase_id, { status: to as PurchaseStoredStatus }, m);
          await this.recordStatus(locked, to as PurchaseStoredStatus, input.cancel_reason ?? null, m);
        });
      }
    }
    const other: Partial<PurchaseFields> = {};
    if (input.cancel_reason !== undefined) other.cancel_reason = input.cancel_reason;
    if (input.expiration_days !== undefined) other.expiration_days = input.expiration_days;
    if (input.amount !== undefined) other.amount = input.amount;
    if (Object.keys(other).length)
      await this.transactions.run(async (m) => {
        await this.purchases.update(before.purchase_id, other, m);
        await this.audit.record(
          'purchase.updated',
          {
            target_user_id: before.user_id,
            target_type: 'purchase',
            target_id: before.purchase_id,
            details: { changed: Object.keys(other) },
          },
          m,
        );
      });
    return (await this.purchases.findById(before.purchase_id))!;
  }

  // ---------------------------------------------------------------- helpers

  /**
   * The open invoice staff issued to `user_id` that a checkout pays (locked): pending or failed, not a renewal,
   * and not tied to a purchase that was already paid (that one is paid from Billing as an invoice). 404 otherwise.
   */
  private async contractInvoice(
    invoice_id: number,
    user_id: number,
    discount_code: string | null | undefined,
    m: EntityManager,
  ): Promise<Invoice> {
    const invoice = await this.invoices.findByIdForUpdate(invoice_id, m);
    const open =
      invoice &&
      invoice.user_id === user_id &&
      (invoice.status === 'pending' || invoice.status === 'failed') &&
      !invoice.stripe_invoice_id &&
      !invoice.paypal_capture_id &&
      !invoice.period_end;
    if (!open) throw notFound('Invoice', 'invoice_not_found');
    if (invoice.purchase_id) {
      const tied = await this.purchases.findById(invoice.purchase_id, m);
      if (tied && PAID_BEFORE.includes(tied.status)) throw notFound('Invoice', 'invoice_not_found');
    }
    if (discount_code?.trim())
      throw badInput('A discount code cannot be used to pay an invoice.', 'discount_not_applicable');
    return invoice;
  }

  /**
   * A purchase just paid pays the open invoices staff issued for it (a contract paid through checkout): completed,
   * audited; the money is the purchase's, so the lifetime value is not raised a second time.
   */
  private async payIssuedInvoices(purchase: Purchase, m: EntityManager): Promise<void> {
    for (const invoice of await this.invoices.openIssuedFor(purchase.purchase_id, m)) {
      await this.invoices.update(
        invoice.invoice_id,
        {
          status: 'completed',
          paid_at: purchase.paid_at ?? new Date(),
          payment_method_id: purchase.payment_method_id,
        },
        m,
      );
      await this.audit.record(
        'invoice.status_changed',
        {
          target_user_id: invoice.user_id,
          target_type: 'invoice',
          target_id: invoice.invoice_id,
          organization_id: purchase.organization_id,
          details: {
            from: invoice.status,
            to: 'completed',
            reason: `Paid by purchase ${purchase.purchase_id}.`,
          },
        },
        m,
      );
    }
  }

  /**
   * A revoked purchase charges nothing more: its provider subscription (a renewing or a cancelled one still
   * running to its period end) is ended at the provider in a retried job, after the revoke is committed.
   */
  private async queueProviderStop(purchase: Purchase, principal: Principal): Promise<void> {
    const subscription = purchase.stripe_subscription_id ?? purchase.paypal_subscription_id;
    if (!subscription || (purchase.provider !== 'stripe' && purchase.provider !== 'paypal')) return;
    await this.jobs.add<ProviderStopJob>(
      PROVIDER_STOP_JOB,
      { purchase_id: purchase.purchase_id, requested_by: principal.user_id },
      PROVIDER_STOP_RETRY,
    );
  }

  /** The job: ends the subscription at its provider and audits it; throws to be retried, the last try audits the failure. */
  async stopAtProvider(job: ProviderStopJob, lastTry: boolean): Promise<void> {
    const purchase = await this.purchases.findById(job.purchase_id);
    if (!purchase || purchase.status !== 'revoked' || !purchase.provider) return;
    const subscription = purchase.stripe_subscription_id ?? purchase.paypal_subscription_id;
    const audit = (details: Record<string, unknown>) =>
      this.audit.record('purchase.subscription_stopped', {
        target_user_id: purchase.user_id,
        target_type: 'purchase',
        target_id: purchase.purchase_id,
        organization_id: purchase.organization_id,
        details: { provider: purchase.provider, subscription, requested_by: job.requested_by, ...details },
      });
    try {
      const impl = this.providerCancels.get(purchase.provider);
      if (!impl) throw new Error(`no ${purchase.provider} client is registered`);
      const stopped = await impl.cancelNow(purchase);
      await audit({ outcome: stopped ? 'stopped' : 'already_ended' });
    } catch (err) {
      if (!lastTry) throw err;
      this.logger.warn(
        `The ${purchase.provider} subscription of purchase ${purchase.purchase_id} could not be stopped: ${(err as Error).message}`,
      );
      await audit({ outcome: 'failed', error: (err as Error).message.slice(0, 300) });
    }
  }

  private async stopRenewing(purchase: Purchase): Promise<Date | null> {
    const subscription =
      purchase.stripe_subscription_id ?? purchase.paypal_subscription_id ?? purchase.subscription_id;
    if (
      !subscription ||
      !purchase.provider ||
      purchase.provider === 'manual' ||
      purchase.cancel_at_period_end
    )
      return null;
    const impl = this.providerCancels.get(purchase.provider);
    if (!impl)
      throw new DomainError(
        503,
        'payment_provider_unavailable',
        'The payment provider cannot be reached to stop the subscription. Please try again later.',
      );
    return (await impl.cancelAtPeriodEnd(purchase)).period_end;
  }

  private async revokeLocked(purchase: Purchase, reason: string | null, m: EntityManager): Promise<Purchase> {
    if (purchase.user_id !== null)
      await this.words.endGrants(purchase.user_id, GRANT_SOURCE, grantReference(purchase.purchase_id), m);
    const now = new Date();
    const changes: Partial<PurchaseFields> = {
      status: 'revoked',
      revoked_at: now,
      expires_at: now,
      ...(reason ? { cancel_reason: reason } : {}),
    };
    await this.purchases.update(purchase.purchase_id, changes, m);
    await this.recordStatus(purchase, 'revoked', reason, m);
    return { ...purchase, ...changes } as Purchase;
  }

  private async grantWords(
    purchase: Purchase,
    product: ProductView,
    expires_at: Date | null,
    now: Date,
    m: EntityManager,
  ) {
    // A deleted customer's purchase (anonymised) has no one to give words to.
    if ((expires_at && expires_at <= now) || purchase.user_id === null) return;
    const inTrial = product.is_subscription && trialEnd(product, now) !== null;
    await this.words.grant(
      purchase.user_id,
      {
        ...wordsToGrant(product, inTrial),
        source: GRANT_SOURCE,
        reference: grantReference(purchase.purchase_id),
        expires_at,
        created_by: purchase.created_by,
      },
      m,
    );
  }

  private async lockPurchase(purchase_id: number, m: EntityManager): Promise<Purchase> {
    const purchase = await this.purchases.findByIdForUpdate(purchase_id, m);
    if (!purchase) throw purchaseNotFound();
    return purchase;
  }

  private recordStatus(
    purchase: Purchase,
    to: PurchaseStoredStatus,
    reason: string | null,
    m: EntityManager,
  ) {
    return this.audit.record(
      'purchase.status_changed',
      {
        target_user_id: purchase.user_id,
        target_type: 'purchase',
        target_id: purchase.purchase_id,
        organization_id: purchase.organization_id,
        details: { from: purchase.status, to, reason },
      },
      m,
    );
  }

  private recordRefund(
    purchase: Purchase,
    invoice_id: number | null,
    amount: number,
    input: { reason: string | null; reference?: string },
    m: EntityManager,
  ) {
    return this.audit.record(
      'purchase.refunded',
      {
        target_user_id: purchase.user_id,
        target_type: 'purchase',
        target_id: purchase.purchase_id,
        organization_id: purchase.organization_id,
        details: { amount, invoice_id, reason: input.reason, reference: input.reference ?? null },
      },
      m,
    );
  }

  private inTransaction<T>(
    manager: EntityManager | undefined,
    work: (m: EntityManager) => Promise<T>,
  ): Promise<T> {
    // A manager passed in is the caller's open transaction: the work joins it instead of opening its own.
    return manager ? work(manager) : this.transactions.run(work);
  }
}

export type { Invoice };

/** A purchase as other modules see it (payments): its row's fields, never the entity class. */
export type PurchaseView = Purchase;
