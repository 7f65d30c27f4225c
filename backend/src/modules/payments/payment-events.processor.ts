import { Injectable, Logger } from '@nestjs/common';
import { PAYMENT_METHOD_IDS } from '@avatar-studio/contracts';
import type { EntityManager } from 'typeorm';
import { MailService } from '../mail/mail.service';
import { ProductsService } from '../products/products.service';
import type { Purchase } from '../purchases/purchase.entity';
import { InvoicesService } from '../purchases/invoices.service';
import { PurchasesService } from '../purchases/purchases.service';
import { UsersService } from '../users/users.service';
import type { PaymentEvent } from './payment-event.entity';
import { PayPalClient, paypalCents } from './paypal.client';
import { PaymentsRepository } from './payments.repository';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider JSON, read field by field
type Obj = Record<string, any>;

/** The event builds on one not processed yet (e.g. a renewal before the first payment): try again later. */
export class EarlierEventMissing extends Error {}

type Outcome = 'processed' | 'ignored';

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
  ) {}

  /** Processes the event; throws to be retried, except on the last try, which records the failure. */
  async process(payment_event_id: string, lastTry: boolean): Promise<void> {
    const failedRenewals: { purchase: Purchase; amount: number }[] = [];
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
    failed: { purchase: Purchase; amount: number }[],
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
        return this.invoicePaid(object, m);
      case 'invoice.payment_failed':
        return this.invoiceFailed(object, m, failed);
      case 'customer.subscription.updated':
        return this.subscriptionUpdated(object, m);
      case 'customer.subscription.deleted':
        return this.subscriptionDeleted(object, m);
      case 'charge.refunded':
        return this.chargeRefunded(object, m);
      case 'charge.dispute.closed':
        return this.disputeClosed(object, m);
      case 'charge.dispute.created':
        return this.disputeCreated(object, m);
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

  private async invoicePaid(invoice: Obj, m: EntityManager): Promise<Outcome> {
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
    failed: { purchase: Purchase; amount: number }[],
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
    await this.purchases.renewalFailed(
      purchase.purchase_id,
      {
        amount: invoice.amount_due,
        stripe_invoice_id: invoice.id,
        period_end: date(invoice.period_end) ?? undefined,
      },
      m,
    );
    failed.push({ purchase, amount: invoice.amount_due });
    return 'processed';
  }

  private async subscriptionUpdated(sub: Obj, m: EntityManager): Promise<Outcome> {
    if (!sub.cancel_at_period_end) return 'ignored';
    const purchase = await this.purchases.findByReference('stripe_subscription_id', sub.id, m, true);
    if (!purchase) throw new EarlierEventMissing(`no purchase for subscription ${sub.id} yet`);
    if (purchase.status === 'cancelled' || purchase.status === 'revoked') return 'ignored';
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

  private async chargeRefunded(charge: Obj, m: EntityManager): Promise<Outcome> {
    if (!charge.payment_intent) return 'ignored';
    const purchase = await this.purchases.findByReference(
      'stripe_payment_intent_id',
      charge.payment_intent,
      m,
      true,
    );
    if (!purchase) return 'ignored';
    // The charge carries the total refunded so far: only what this purchase has not yet counted is new.
    const delta = charge.amount_refunded - purchase.refunded_amount;
    if (delta <= 0) return 'ignored';
    await this.purchases.refund(
      purchase.purchase_id,
      { amount: delta, reason: 'Refunded at Stripe.', reference: `${charge.id}:${charge.amount_refunded}` },
      m,
    );
    return 'processed';
  }

  /** A dispute opened: access ends at once (the money is held by the bank until it is decided). */
  private async disputeCreated(dispute: Obj, m: EntityManager): Promise<Outcome> {
    if (!dispute.payment_intent) return 'ignored';
    const purchase = await this.purchases.findByReference(
      'stripe_payment_intent_id',
      dispute.payment_intent,
      m,
      true,
    );
    if (!purchase || purchase.status === 'revoked') return 'ignored';
    await this.purchases.revoke(purchase.purchase_id, 'The payment is disputed.', m);
    return 'processed';
  }

  /** A lost dispute gives the money back to the buyer. */
  private async disputeClosed(dispute: Obj, m: EntityManager): Promise<Outcome> {
    if (dispute.status !== 'lost' || !dispute.payment_intent) return 'ignored';
    const purchase = await this.purchases.findByReference(
      'stripe_payment_intent_id',
      dispute.payment_intent,
      m,
      true,
    );
    if (!purchase) return 'ignored';
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

  private async paypalEvent(
    event: PaymentEvent,
    m: EntityManager,
    failed: { purchase: Purchase; amount: number }[],
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
        const sub = await this.paypal.getSubscription(subscriptionId);
        const periodEnd = sub.billing_info?.next_billing_time
          ? new Date(sub.billing_info.next_billing_time)
          : null;
        if (purchase.status === 'pending' || purchase.status === 'processing') {
          await this.purchases.activate(
            purchase.purchase_id,
            { amount_paid: amount, current_period_end: periodEnd, payment_processor_id: resource.id },
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
          },
          m,
        );
        return renewed ? 'processed' : 'ignored';
      }
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
        await this.purchases.renewalFailed(purchase.purchase_id, { amount: purchase.amount }, m);
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

  private async emailFailure(purchase: Purchase, amount: number): Promise<void> {
    try {
      const [user, product] = await Promise.all([
        this.users.toPublicUser(purchase.user_id),
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
