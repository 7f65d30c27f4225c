import { Injectable, Logger } from '@nestjs/common';
import { PAYMENT_METHOD_IDS } from '@avatar-studio/contracts';
import type { EntityManager } from 'typeorm';
import { MailService } from '../mail/mail.service';
import { ProductsService } from '../products/products.service';
import { InvoicesService } from '../purchases/invoices.service';
import { PurchasesService, type Invoice, type PurchaseView } from '../purchases/purchases.service';
import { addPeriod } from '../purchases/purchase-rules';
import { UsersService } from '../users/users.service';
import type { PaymentEvent } from './payment-event.entity';
import { PayPalClient, paypalCents } from './paypal.client';
import { PaymentsRepository } from './payments.repository';
import { StripeAccounts } from './stripe-accounts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider JSON, read field by field
type Obj = Record<string, any>;

/** The event builds on one not processed yet (e.g. a renewal before the first payment): try again later. */
export class EarlierEventMissing extends Error {}

type Outcome = 'processed' | 'ignored';

/** What a Stripe charge paid: a purchase's first payment, or one invoice (a renewal, or an invoice paid by card). */
type ChargeTarget =
  { purchase: PurchaseView; invoice?: undefined } | { invoice: Invoice; purchase?: undefined };

/**
 * A PayPal subscription's first sale happens when the buyer approves it, moments before the capture that
 * activates the purchase; the shortest cycle (a day) puts every renewal's sale well after this window.
 */
const FIRST_SALE_WINDOW_MS = 6 * 3600_000;
const isFirstSale = (sale: Obj, purchase: PurchaseView) =>
  !purchase.paid_at ||
  !sale.create_time ||
  Math.abs(Date.parse(sale.create_time) - purchase.paid_at.getTime()) < FIRST_SALE_WINDOW_MS;

const isPaid = (invoice: Invoice) => invoice.status === 'completed' || invoice.status === 'active';

const date = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** The subscription an invoice bills (the API's parent.subscription_details since 2025). */
const invoiceSubscription = (invoice: Obj): string | null =>
  invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;

/** The PaymentIntent that paid an invoice, when the event carries it. */
const invoicePaymentIntent = (invoice: Obj): string | null => {
  const payment = invoice.payments?.data?.[0]?.payment?.payment_intent;
  return typeof payment === 'string' ? payment : (payment?.id ?? null);
};

/**
 * Applies one stored webhook event to purchases and invoices through billing's services, in one transaction
 * with the event's own row (locked, so two workers never apply it twice). Every step is idempotent, so the
 * order events arrive in never matters; an event that needs an earlier one waits for it.
 */
@Injectable()
export class PaymentEventsProcessor {
  private readonly logger = new Logger('PaymentEvents');

  constructor(
    private readonly repo: PaymentsRepository,
    private readonly purchases: PurchasesService,
    private readonly invoices: InvoicesService,
    private readonly products: ProductsService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly paypal: PayPalClient,
    private readonly accounts: StripeAccounts,
  ) {}

  /** Processes the event; throws to be retried, except on the last try, which records the failure. */
  async process(payment_event_id: string, lastTry: boolean): Promise<void> {
    const failedRenewals: { purchase: PurchaseView; amount: number }[] = [];
    try {
      await this.repo.transaction(async (m) => {
        const event = await this.repo.lockEvent(payment_event_id, m);
        if (!event || event.status === 'processed' || event.status === 'ignored') return;
        const outcome =
          event.provider === 'stripe'
            ? await this.stripe(event, m, failedRenewals)
            : await this.paypalEvent(event, m, failedRenewals);
        await this.repo.finishEvent(payment_event_id, outcome, null, m);
      });
    } catch (err) {
      failedRenewals.length = 0;
      if (!lastTry) throw err;
      this.logger.warn(`Payment event ${payment_event_id} failed for good: ${(err as Error).message}`);
      await this.repo.finishEvent(payment_event_id, 'failed', (err as Error).message, undefined);
      return;
    }
    // Mail only once the change is committed.
    for (const { purchase, amount } of failedRenewals) await this.emailFailure(purchase, amount);
  }

  private async stripe(
    event: PaymentEvent,
    m: EntityManager,
    failed: { purchase: PurchaseView; amount: number }[],
  ): Promise<Outcome> {
    const object = (event.payload.data as Obj)?.object as Obj;
    if (!object) return 'ignored';
    switch (event.type) {
      case 'payment_intent.succeeded':
        return this.paymentIntentSucceeded(object, m);
      case 'payment_intent.payment_failed':
        return this.paymentIntentFailed(object, m);
      case 'invoice.paid':
      case 'invoice.payment_succeeded':
        return this.invoicePaid(object, event.account, m);
      case 'invoice.payment_failed':
        return this.invoiceFailed(object, m, failed);
      case 'customer.subscription.updated':
        return this.subscriptionUpdated(object, m);
      case 'customer.subscription.deleted':
        return this.subscriptionDeleted(object, m);
      case 'charge.refunded':
        return this.chargeRefunded(object, event.account, m);
      case 'charge.dispute.closed':
        return this.disputeClosed(object, event.account, m);
      case 'charge.dispute.created':
        return this.disputeCreated(object, event.account, m);
      default:
        return 'ignored';
    }
  }

  private async paymentIntentSucceeded(pi: Obj, m: EntityManager): Promise<Outcome> {
    const invoiceId = Number(pi.metadata?.invoice_id);
    if (invoiceId) {
      await this.invoices.markPaid(
        invoiceId,
        {
          payment_method_id: PAYMENT_METHOD_IDS.card,
          stripe_payment_intent_id: pi.id,
          paid_at: date(pi.created) ?? new Date(),
        },
        m,
      );
      return 'processed';
    }
    const purchase = await this.purchases.findByReference('stripe_payment_intent_id', pi.id, m, true);
    // A subscription's PaymentIntents are settled through their invoice.
    if (!purchase || purchase.stripe_subscription_id) return 'ignored';
    await this.purchases.activate(
      purchase.purchase_id,
      { amount_paid: pi.amount_received ?? pi.amount, payment_processor_id: pi.id },
      m,
    );
    return 'processed';
  }

  private async paymentIntentFailed(pi: Obj, m: EntityManager): Promise<Outcome> {
    const invoiceId = Number(pi.metadata?.invoice_id);
    if (invoiceId) {
      await this.invoices.markFailed(invoiceId, m);
      return 'processed';
    }
    const purchase = await this.purchases.findByReference('stripe_payment_intent_id', pi.id, m, true);
    if (!purchase || purchase.stripe_subscription_id) return 'ignored';
    await this.purchases.markFailed(purchase.purchase_id, pi.last_payment_error?.message ?? null, m);
    return 'processed';
  }

  private async invoicePaid(invoice: Obj, account: string, m: EntityManager): Promise<Outcome> {
    const subscription = invoiceSubscription(invoice);
    if (!subscription) return 'ignored';
    const purchase = await this.purchases.findByReference('stripe_subscription_id', subscription, m, true);
    if (!purchase) throw new EarlierEventMissing(`no purchase for subscription ${subscription} yet`);
    const periodEnd = date(invoice.lines?.data?.[0]?.period?.end ?? invoice.period_end);
    if (invoice.billing_reason === 'subscription_create') {
      await this.purchases.activate(
        purchase.purchase_id,
        {
          amount_paid: invoice.amount_paid,
          current_period_end: periodEnd,
          payment_processor_id: invoicePaymentIntent(invoice) ?? invoice.id,
          paid_at: date(invoice.status_transitions?.paid_at) ?? new Date(),
        },
        m,
      );
      return 'processed';
    }
    // A renewal of a purchase whose first payment is not in yet waits for it.
    if (purchase.status === 'pending' || purchase.status === 'processing')
      throw new EarlierEventMissing(`purchase ${purchase.purchase_id} is not active yet`);
    if (!periodEnd) return 'ignored';
    const renewed = await this.purchases.renew(
      purchase.purchase_id,
      {
        period_end: periodEnd,
        amount: invoice.amount_paid,
        stripe_invoice_id: invoice.id,
        // Kept on the renewal's invoice, so a refund or a dispute of this charge finds it.
        stripe_payment_intent_id: invoicePaymentIntent(invoice) ?? (await this.paidBy(account, invoice.id)),
        payment_method_id: PAYMENT_METHOD_IDS.card,
        paid_at: date(invoice.status_transitions?.paid_at) ?? new Date(),
      },
      m,
    );
    return renewed ? 'processed' : 'ignored';
  }

  private async invoiceFailed(
    invoice: Obj,
    m: EntityManager,
    failed: { purchase: PurchaseView; amount: number }[],
  ): Promise<Outcome> {
    const subscription = invoiceSubscription(invoice);
    if (!subscription) return 'ignored';
    const purchase = await this.purchases.findByReference('stripe_subscription_id', subscription, m, true);
    if (!purchase) throw new EarlierEventMissing(`no purchase for subscription ${subscription} yet`);
    if (invoice.billing_reason === 'subscription_create') {
      await this.purchases.markFailed(
        purchase.purchase_id,
        'The first payment of the subscription failed.',
        m,
      );
      return 'processed';
    }
    if (purchase.status === 'pending' || purchase.status === 'processing')
      throw new EarlierEventMissing(`purchase ${purchase.purchase_id} is not active yet`);
    if (purchase.status !== 'active') return 'ignored';
    const recorded = await this.purchases.renewalFailed(
      purchase.purchase_id,
      {
        amount: invoice.amount_due,
        stripe_invoice_id: invoice.id,
        period_end: date(invoice.period_end) ?? undefined,
      },
      m,
    );
    // A retry that was paid before this failure arrived leaves nothing to tell the user.
    if (!recorded) return 'ignored';
    failed.push({ purchase, amount: invoice.amount_due });
    return 'processed';
  }

  private async subscriptionUpdated(sub: Obj, m: EntityManager): Promise<Outcome> {
    if (!sub.cancel_at_period_end) return 'ignored';
    const purchase = await this.purchases.findByReference('stripe_subscription_id', sub.id, m, true);
    if (!purchase) throw new EarlierEventMissing(`no purchase for subscription ${sub.id} yet`);
    if (purchase.status === 'cancelled' || purchase.status === 'revoked' || purchase.status === 'failed')
      return 'ignored';
    // Cancelled before its first payment was applied: the payment comes first, or the cancel would keep it from
    // ever granting (a subscription that is never paid ends with customer.subscription.deleted instead).
    if (purchase.status === 'pending' || purchase.status === 'processing')
      throw new EarlierEventMissing(`purchase ${purchase.purchase_id} is not active yet`);
    await this.purchases.cancelAtPeriodEnd(
      purchase.purchase_id,
      { reason: purchase.cancel_reason, period_end: date(sub.items?.data?.[0]?.current_period_end) },
      m,
    );
    return 'processed';
  }

  private async subscriptionDeleted(sub: Obj, m: EntityManager): Promise<Outcome> {
    const purchase = await this.purchases.findByReference('stripe_subscription_id', sub.id, m, true);
    if (!purchase) throw new EarlierEventMissing(`no purchase for subscription ${sub.id} yet`);
    if (purchase.status === 'pending' || purchase.status === 'processing') {
      await this.purchases.markFailed(purchase.purchase_id, 'The subscription ended before it was paid.', m);
      return 'processed';
    }
    if (purchase.status === 'revoked' || purchase.status === 'failed') return 'ignored';
    await this.purchases.subscriptionEnded(
      purchase.purchase_id,
      date(sub.ended_at ?? sub.canceled_at) ?? new Date(),
      m,
    );
    return 'processed';
  }

  private async chargeRefunded(charge: Obj, account: string, m: EntityManager): Promise<Outcome> {
    if (!charge.payment_intent) return 'ignored';
    const target = await this.chargeTarget(account, charge.payment_intent, m);
    if (!target) return 'ignored';
    const reference = `${charge.id}:${charge.amount_refunded}`;
    if (target.invoice) {
      // The charge carries the total refunded so far: the invoice counts only what it has not yet.
      const applied = await this.purchases.refundInvoice(
        target.invoice.invoice_id,
        { refunded_total: charge.amount_refunded, reason: 'Refunded at Stripe.', reference },
        m,
      );
      return applied > 0 ? 'processed' : 'ignored';
    }
    const { purchase } = target;
    // The charge carries the total refunded so far: only what this purchase has not yet counted is new.
    const delta = charge.amount_refunded - purchase.refunded_amount;
    if (delta <= 0) return 'ignored';
    await this.purchases.refund(
      purchase.purchase_id,
      { amount: delta, reason: 'Refunded at Stripe.', reference },
      m,
    );
    return 'processed';
  }

  /**
   * A dispute opened: access ends at once (the money is held by the bank until it is decided), whether the
   * disputed charge was the first payment or a renewal. Revoked is final: a dispute won later does not bring
   * access back.
   */
  private async disputeCreated(dispute: Obj, account: string, m: EntityManager): Promise<Outcome> {
    if (!dispute.payment_intent) return 'ignored';
    const target = await this.chargeTarget(account, dispute.payment_intent, m);
    const purchase_id = target?.purchase?.purchase_id ?? target?.invoice?.purchase_id;
    if (!purchase_id) return 'ignored';
    const purchase = await this.purchases.findById(purchase_id, m);
    if (!purchase || purchase.status === 'revoked') return 'ignored';
    await this.purchases.revoke(purchase_id, 'The payment is disputed.', m);
    return 'processed';
  }

  /** A lost dispute gives the disputed charge's money back to the buyer; a won one changes nothing. */
  private async disputeClosed(dispute: Obj, account: string, m: EntityManager): Promise<Outcome> {
    if (dispute.status !== 'lost' || !dispute.payment_intent) return 'ignored';
    const target = await this.chargeTarget(account, dispute.payment_intent, m);
    if (!target) return 'ignored';
    if (target.invoice) {
      const applied = await this.purchases.refundInvoice(
        target.invoice.invoice_id,
        { amount: dispute.amount, reason: 'Dispute lost.', reference: dispute.id },
        m,
      );
      return applied > 0 ? 'processed' : 'ignored';
    }
    const { purchase } = target;
    await this.purchases.refund(
      purchase.purchase_id,
      {
        amount: Math.min(dispute.amount, purchase.amount - purchase.refunded_amount),
        reason: 'Dispute lost.',
        reference: dispute.id,
      },
      m,
    );
    return 'processed';
  }

  /**
   * What a PaymentIntent paid. A purchase's first payment and a recorded renewal are known by it here; otherwise
   * Stripe tells which invoice it paid (webhooks do not carry that link): a renewal of one of our subscriptions
   * not recorded yet waits for its invoice.paid; anything else is not ours.
   */
  private async chargeTarget(
    account: string,
    paymentIntent: string,
    m: EntityManager,
  ): Promise<ChargeTarget | null> {
    const purchase = await this.purchases.findByReference('stripe_payment_intent_id', paymentIntent, m, true);
    if (purchase) return { purchase };
    const invoice = await this.invoices.findByProviderPayment({ stripe_payment_intent_id: paymentIntent }, m);
    if (invoice) return { invoice };
    const { stripe } = await this.accounts.get(account);
    const payments = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
      limit: 1,
      expand: ['data.invoice'],
    });
    const stripeInvoice = payments.data[0]?.invoice as Obj | string | undefined;
    if (!stripeInvoice || typeof stripeInvoice === 'string') return null;
    const subscription = invoiceSubscription(stripeInvoice);
    if (!subscription) return null;
    const owner = await this.purchases.findByReference('stripe_subscription_id', subscription, m, true);
    if (!owner) return null;
    if (stripeInvoice.billing_reason === 'subscription_create') return { purchase: owner };
    const renewal = await this.invoices.findByProviderPayment({ stripe_invoice_id: stripeInvoice.id }, m);
    if (renewal && isPaid(renewal)) return { invoice: renewal };
    // Every purchase but a failed one records its renewals: this one's invoice.paid is still to come.
    if (owner.status !== 'failed')
      throw new EarlierEventMissing(
        `renewal ${stripeInvoice.id} of purchase ${owner.purchase_id} not recorded yet`,
      );
    return null;
  }

  /** The PaymentIntent that paid a Stripe invoice, asked of Stripe; null (with a warning) when it cannot say. */
  private async paidBy(account: string, invoiceId: string): Promise<string | null> {
    try {
      const { stripe } = await this.accounts.get(account);
      const payments = await stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 1 });
      const pi = payments.data[0]?.payment?.payment_intent;
      return typeof pi === 'string' ? pi : (pi?.id ?? null);
    } catch (err) {
      // The renewal is recorded anyway; a later refund of it is then found through Stripe.
      this.logger.warn(`The payment of invoice ${invoiceId} could not be read: ${(err as Error).message}`);
      return null;
    }
  }

  private async paypalEvent(
    event: PaymentEvent,
    m: EntityManager,
    failed: { purchase: PurchaseView; amount: number }[],
  ): Promise<Outcome> {
    const resource = event.payload.resource as Obj;
    if (!resource) return 'ignored';
    switch (event.type) {
      case 'PAYMENT.CAPTURE.COMPLETED': {
        const orderId = resource.supplementary_data?.related_ids?.order_id;
        if (!orderId) return 'ignored';
        const purchase = await this.purchases.findByReference('paypal_order_id', orderId, m, true);
        if (!purchase) throw new EarlierEventMissing(`no purchase for order ${orderId} yet`);
        await this.purchases.activate(
          purchase.purchase_id,
          { amount_paid: paypalCents(resource.amount.value), payment_processor_id: resource.id },
          m,
        );
        return 'processed';
      }
      case 'PAYMENT.SALE.COMPLETED': {
        const subscriptionId = resource.billing_agreement_id;
        if (!subscriptionId) return 'ignored';
        const purchase = await this.purchases.findByReference(
          'paypal_subscription_id',
          subscriptionId,
          m,
          true,
        );
        if (!purchase) throw new EarlierEventMissing(`no purchase for subscription ${subscriptionId} yet`);
        const amount = paypalCents(resource.amount?.total ?? resource.amount?.value ?? '0');
        const periodEnd = await this.salePeriodEnd(resource, purchase, m);
        if (purchase.status === 'pending' || purchase.status === 'processing') {
          await this.purchases.activate(
            purchase.purchase_id,
            { amount_paid: amount, current_period_end: periodEnd, payment_processor_id: resource.id },
            m,
          );
          return 'processed';
        }
        // Activated by its capture, the purchase knows the subscription, not the sale: a sale made around that
        // capture is the first payment (already counted), and is linked so a refund of it finds the purchase.
        if (purchase.payment_processor_id === subscriptionId && isFirstSale(resource, purchase)) {
          await this.purchases.attachReferences(
            purchase.purchase_id,
            { payment_processor_id: resource.id },
            m,
          );
          return 'processed';
        }
        if (!periodEnd) return 'ignored';
        const renewed = await this.purchases.renew(
          purchase.purchase_id,
          {
            period_end: periodEnd,
            amount,
            paypal_capture_id: resource.id,
            payment_method_id: PAYMENT_METHOD_IDS.paypal,
            paid_at: resource.create_time ? new Date(resource.create_time) : undefined,
          },
          m,
        );
        return renewed ? 'processed' : 'ignored';
      }
      case 'PAYMENT.SALE.REFUNDED':
        return this.paypalSaleRefunded(resource, m);
      case 'BILLING.SUBSCRIPTION.CANCELLED': {
        const purchase = await this.purchases.findByReference('paypal_subscription_id', resource.id, m, true);
        if (!purchase) return 'ignored';
        if (purchase.status === 'cancelled' || purchase.status === 'revoked') return 'ignored';
        if (purchase.status === 'pending' || purchase.status === 'processing') {
          await this.purchases.markFailed(
            purchase.purchase_id,
            'The subscription was cancelled before it was paid.',
            m,
          );
          return 'processed';
        }
        await this.purchases.cancelAtPeriodEnd(purchase.purchase_id, { reason: purchase.cancel_reason }, m);
        return 'processed';
      }
      case 'BILLING.SUBSCRIPTION.PAYMENT.FAILED': {
        const purchase = await this.purchases.findByReference('paypal_subscription_id', resource.id, m, true);
        if (!purchase || purchase.status !== 'active') return 'ignored';
        const failedAt = resource.billing_info?.last_failed_payment?.time ?? event.payload.create_time;
        const recorded = await this.purchases.renewalFailed(
          purchase.purchase_id,
          { amount: purchase.amount, failed_at: failedAt ? new Date(failedAt as string) : undefined },
          m,
        );
        if (!recorded) return 'ignored';
        failed.push({ purchase, amount: purchase.amount });
        return 'processed';
      }
      case 'PAYMENT.CAPTURE.REFUNDED': {
        const orderId = resource.supplementary_data?.related_ids?.order_id;
        if (!orderId) return 'ignored';
        const purchase = await this.purchases.findByReference('paypal_order_id', orderId, m, true);
        if (!purchase) return 'ignored';
        await this.purchases.refund(
          purchase.purchase_id,
          {
            amount: paypalCents(resource.amount.value),
            reason: 'Refunded at PayPal.',
            reference: resource.id,
          },
          m,
        );
        return 'processed';
      }
      default:
        return 'ignored';
    }
  }

  /**
   * A PayPal subscription's sale refunded (PayPal sends one event per refund, with that refund's amount): a
   * renewal's refund goes to its invoice, the first payment's to the purchase. A refund of a renewal not recorded
   * yet waits for its PAYMENT.SALE.COMPLETED.
   */
  private async paypalSaleRefunded(refund: Obj, m: EntityManager): Promise<Outcome> {
    const saleId = refund.sale_id;
    if (typeof saleId !== 'string') return 'ignored';
    const amount = paypalCents(refund.amount?.total ?? refund.amount?.value ?? '0');
    const renewal = await this.invoices.findByProviderPayment({ paypal_capture_id: saleId }, m);
    if (renewal) {
      const applied = await this.purchases.refundInvoice(
        renewal.invoice_id,
        { amount, reason: 'Refunded at PayPal.', reference: refund.id },
        m,
      );
      return applied > 0 ? 'processed' : 'ignored';
    }
    const purchase = await this.purchases.findByReference('payment_processor_id', saleId, m, true);
    if (purchase) {
      await this.purchases.refund(
        purchase.purchase_id,
        { amount, reason: 'Refunded at PayPal.', reference: refund.id },
        m,
      );
      return 'processed';
    }
    // A refund names its sale, not always the subscription: PayPal tells which subscription the sale paid.
    const subscriptionId =
      typeof refund.billing_agreement_id === 'string'
        ? refund.billing_agreement_id
        : (await this.paypal.getSale(saleId))?.billing_agreement_id;
    if (typeof subscriptionId !== 'string') return 'ignored';
    const owner = await this.purchases.findByReference('paypal_subscription_id', subscriptionId, m, true);
    if (owner && owner.status !== 'failed')
      throw new EarlierEventMissing(`sale ${saleId} of subscription ${subscriptionId} not recorded yet`);
    return 'ignored';
  }

  /**
   * The end of the period a PayPal sale paid: one billing cycle of the product from the sale's own time, so a sale
   * delivered late (or after a later one) still pays its own period; without a time, PayPal's next billing time.
   */
  private async salePeriodEnd(sale: Obj, purchase: PurchaseView, m: EntityManager): Promise<Date | null> {
    const soldAt = sale.create_time ? new Date(sale.create_time as string) : null;
    const product = await this.products.findById(purchase.product_id, m);
    if (soldAt && !Number.isNaN(soldAt.getTime()) && product?.is_subscription)
      return addPeriod(soldAt, product.subscription_interval ?? 1, product.subscription_period ?? 'month');
    const sub = await this.paypal.getSubscription(sale.billing_agreement_id as string);
    return sub.billing_info?.next_billing_time ? new Date(sub.billing_info.next_billing_time) : null;
  }

  private async emailFailure(purchase: PurchaseView, amount: number): Promise<void> {
    if (purchase.user_id === null) return;
    const user_id = purchase.user_id;
    try {
      const [user, product] = await Promise.all([
        this.users.toPublicUser(user_id),
        this.products.findById(purchase.product_id),
      ]);
      await this.mail.sendPaymentFailed(
        { email: user.email, name: user.name },
        { product_name: product?.name ?? 'your subscription', amount_cents: amount },
      );
    } catch (err) {
      this.logger.warn(
        `Failed-payment email for purchase ${purchase.purchase_id} not queued: ${(err as Error).message}`,
      );
    }
  }
}
