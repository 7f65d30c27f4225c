import { Injectable, Logger } from '@nestjs/common';
import { BILLING_MESSAGES, PAYMENT_MESSAGES, PAYMENT_METHOD_IDS } from '@avatar-studio/contracts';
import Stripe from 'stripe';
import type { Principal } from '../../common/auth/principal';
import { badInput, DomainError, notFound } from '../../common/errors/domain-error';
import { ProductsService, type ProductView } from '../products/products.service';
import { InvoicesService } from '../purchases/invoices.service';
import { PurchasesService, type Invoice, type PurchaseView } from '../purchases/purchases.service';
import type {
  CheckoutAttemptBody,
  CheckoutCaptureBody,
  CheckoutKeysResponse,
  CheckoutResponse,
  InvoiceCheckoutKeysResponse,
} from './dto/payments.dto';
import { PayPalClient } from './paypal.client';
import { PaymentSourcesService } from './payment-sources.service';
import { accountOf, StripeAccount, StripeAccounts, stripeFailure } from './stripe-accounts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider JSON, read field by field
type Obj = Record<string, any>;

const invalidMethod = () =>
  new DomainError(400, 'invalid_payment_method', BILLING_MESSAGES.invalidPaymentMethod);
const PM_ID = /^pm_[A-Za-z0-9_]{1,200}$/;
const PI_ID = /^pi_[A-Za-z0-9_]{1,200}$/;

/** The period end of a subscription (on its first item since Stripe's 2025 API). */
const periodEnd = (sub: Stripe.Subscription) => {
  const end = sub.items?.data?.[0]?.current_period_end;
  return end ? new Date(end * 1000) : null;
};

/** Trial of a product: days, or an end date still in the future. */
export function trialOf(product: ProductView, now = Date.now()): { days: number } | { end: number } | null {
  if (product.free_trial_end && product.free_trial_end.getTime() > now + 60_000)
    return { end: Math.floor(product.free_trial_end.getTime() / 1000) };
  if (product.free_trial_length && product.free_trial_length > 0) return { days: product.free_trial_length };
  return null;
}

/**
 * Checkout with a card through Stripe. The amount is always computed here (the product's price less the
 * discount, or the invoice's amount); a one-off product is a PaymentIntent, a subscription a Stripe
 * Subscription; 3-D Secure is confirmed by Stripe.js with the client secret, then captured.
 */
@Injectable()
export class CheckoutService {
  private readonly logger = new Logger('Checkout');

  constructor(
    private readonly products: ProductsService,
    private readonly purchases: PurchasesService,
    private readonly invoices: InvoicesService,
    private readonly accounts: StripeAccounts,
    private readonly sources: PaymentSourcesService,
    private readonly paypal: PayPalClient,
  ) {}

  async attempt(me: Principal, body: CheckoutAttemptBody): Promise<CheckoutResponse> {
    if (body.type === 'invoice' || (body.invoice_id && !body.product_id))
      return this.attemptInvoice(me, body);
    if (!body.product_id) throw badInput('product_id is required.');
    const product = await this.productFor(me, body.product_id);
    const account = await this.accounts.get(accountOf(product.organization_id));
    const card = await this.cardFor(me, account, body);
    const customer = await this.sources.customerId(me.user_id, account);
    const { purchase, amount } = await this.purchases.createPending({
      user_id: me.user_id,
      product,
      payment_method_id: PAYMENT_METHOD_IDS.card,
      provider: 'stripe',
      discount_code: body.discountCode?.trim() || null,
      contract_invoice_id: body.contract_invoice_id ?? null,
      references: { stripe_customer_id: customer },
    });
    try {
      return product.is_subscription
        ? await this.subscribe(account, product, purchase, amount, customer, card)
        : await this.charge(account, product, purchase, amount, customer, card);
    } catch (err) {
      await this.purchases
        .markFailed(purchase.purchase_id, (err as Error).message.slice(0, 500))
        .catch(() => undefined);
      throw stripeFailure(err);
    }
  }

  /** The public keys the checkout page loads Stripe.js and PayPal's script with, for this product. */
  async keys(me: Principal, product_id: number): Promise<CheckoutKeysResponse> {
    const product = await this.productFor(me, product_id);
    const account = await this.accounts.find(accountOf(product.organization_id));
    return {
      stripe_publishable_key: account?.publishableKey ?? null,
      paypal_client_id: product.organization_id ? null : await this.paypal.clientId(),
    };
  }

  /**
   * The key and account an open invoice is paid with: a renewal is paid at its subscription's account (an
   * organization's own), an invoice staff issued at the platform's.
   */
  async invoiceKeys(me: Principal, invoice_id: number): Promise<InvoiceCheckoutKeysResponse> {
    const invoice = await this.invoices.getForPayment(invoice_id, me);
    const purchase =
      invoice.stripe_invoice_id && invoice.purchase_id
        ? await this.purchases.findById(invoice.purchase_id)
        : null;
    const organization_id = purchase?.organization_id ?? null;
    const account = await this.accounts.find(accountOf(organization_id));
    return { stripe_publishable_key: account?.publishableKey ?? null, organization_id };
  }

  async capture(me: Principal, body: CheckoutCaptureBody): Promise<CheckoutResponse> {
    if (body.invoice_id) return this.captureInvoice(me, body.invoice_id, body.payment_intent_id);
    const purchase = await this.purchases.getVisible(body.purchase_id!, me);
    if (purchase.user_id !== me.user_id) throw notFound('Purchase');
    if (
      purchase.provider !== 'stripe' ||
      ['active', 'completed', 'cancelled', 'revoked', 'failed'].includes(purchase.status)
    )
      return this.answer(purchase, purchase.status, null, null);
    const account = await this.accounts.get(accountOf(purchase.organization_id));
    try {
      if (purchase.stripe_subscription_id) {
        const sub = await account.stripe.subscriptions.retrieve(purchase.stripe_subscription_id, {
          expand: ['latest_invoice.payments'],
        });
        if (sub.status === 'active' || sub.status === 'trialing') {
          const invoice = sub.latest_invoice as Stripe.Invoice | null;
          const done = await this.purchases.activate(purchase.purchase_id, {
            amount_paid: invoice?.amount_paid ?? 0,
            current_period_end: periodEnd(sub),
            payment_processor_id: invoice?.id,
          });
          return this.answer(done, done.status, null, null);
        }
        if (sub.status === 'incomplete')
          throw new DomainError(402, 'payment_incomplete', PAYMENT_MESSAGES.paymentIncomplete);
        const failed = await this.purchases.markFailed(purchase.purchase_id, `Subscription ${sub.status}.`);
        return this.answer(failed, failed.status, null, null);
      }
      if (!purchase.stripe_payment_intent_id) throw notFound('Purchase');
      const pi = await account.stripe.paymentIntents.retrieve(purchase.stripe_payment_intent_id);
      if (pi.status === 'succeeded') {
        const done = await this.purchases.activate(purchase.purchase_id, {
          amount_paid: pi.amount_received,
          payment_processor_id: pi.id,
        });
        return this.answer(done, done.status, null, null);
      }
      if (pi.status === 'requires_action' || pi.status === 'processing')
        throw new DomainError(402, 'payment_incomplete', PAYMENT_MESSAGES.paymentIncomplete);
      const failed = await this.purchases.markFailed(
        purchase.purchase_id,
        pi.last_payment_error?.message ?? `Payment ${pi.status}.`,
      );
      return this.answer(failed, failed.status, null, null);
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  /** The product the caller may buy; a missing one answers the spec's Spanish sentence. */
  private async productFor(me: Principal, product_id: number): Promise<ProductView> {
    try {
      return await this.products.getForPurchase(product_id, me);
    } catch (err) {
      if (err instanceof DomainError && err.status === 404)
        throw new DomainError(404, 'product_not_found', PAYMENT_MESSAGES.productNotFound);
      throw err;
    }
  }

  /** The card to charge: a saved source of the caller at this account, or a new card from Stripe.js. */
  private async cardFor(
    me: Principal,
    account: StripeAccount,
    body: CheckoutAttemptBody,
  ): Promise<{ id: string; saved: boolean }> {
    const source = body.payment_source_id ?? 'card';
    if (source !== 'card') {
      const saved = await this.sources.forCheckout(me.user_id, Number(source));
      if (saved.account !== account.account) throw invalidMethod();
      return { id: saved.stripe_payment_method_id, saved: true };
    }
    if (!body.payment_method_id || !PM_ID.test(body.payment_method_id)) throw invalidMethod();
    return { id: body.payment_method_id, saved: false };
  }

  private async charge(
    account: StripeAccount,
    product: ProductView,
    purchase: PurchaseView,
    amount: number,
    customer: string,
    card: { id: string },
  ): Promise<CheckoutResponse> {
    if (amount === 0) {
      const done = await this.purchases.activate(purchase.purchase_id, { amount_paid: 0 });
      return this.answer(done, done.status, null, account.publishableKey, 0);
    }
    let pi: Stripe.PaymentIntent;
    try {
      pi = await account.stripe.paymentIntents.create(
        {
          amount,
          currency: product.currency || 'usd',
          customer,
          payment_method: card.id,
          confirm: true,
          description: product.name.slice(0, 200),
          metadata: { purchase_id: String(purchase.purchase_id), user_id: String(purchase.user_id) },
        },
        { idempotencyKey: `purchase-${purchase.purchase_id}` },
      );
    } catch (err) {
      const declined = (err as Obj)?.raw?.payment_intent?.id as string | undefined;
      if (declined)
        await this.purchases.attachReferences(purchase.purchase_id, { stripe_payment_intent_id: declined });
      throw err;
    }
    await this.purchases.attachReferences(purchase.purchase_id, {
      stripe_payment_intent_id: pi.id,
      payment_processor_id: pi.id,
    });
    if (pi.status === 'succeeded') {
      const done = await this.purchases.activate(purchase.purchase_id, {
        amount_paid: pi.amount_received,
        payment_processor_id: pi.id,
      });
      return this.answer(done, done.status, null, account.publishableKey, amount);
    }
    if (pi.status === 'requires_action')
      return this.answer(purchase, 'pending', pi.client_secret, account.publishableKey, amount);
    throw new DomainError(402, 'payment_declined', PAYMENT_MESSAGES.cardDeclined);
  }

  private async subscribe(
    account: StripeAccount,
    product: ProductView,
    purchase: PurchaseView,
    amount: number,
    customer: string,
    card: { id: string; saved: boolean },
  ): Promise<CheckoutResponse> {
    const paymentMethod = await this.attachCard(account, card, customer);
    const stripeProduct =
      product.stripe_product_id ??
      (
        await account.stripe.products.create(
          { name: product.name.slice(0, 200), metadata: { product_id: String(product.product_id) } },
          { idempotencyKey: `product-${account.account}-${product.product_id}` },
        )
      ).id;
    const trial = trialOf(product);
    const sub = await account.stripe.subscriptions.create(
      {
        customer,
        // The price is ours (the discount applied): every period is billed at the amount computed here.
        items: [
          {
            price_data: {
              currency: product.currency || 'usd',
              product: stripeProduct,
              unit_amount: amount,
              recurring: {
                interval: (product.subscription_period ?? 'month') as 'day' | 'month' | 'year',
                interval_count: product.subscription_interval ?? 1,
              },
            },
          },
        ],
        default_payment_method: paymentMethod,
        payment_behavior: 'allow_incomplete',
        ...(trial && 'days' in trial ? { trial_period_days: trial.days } : {}),
        ...(trial && 'end' in trial ? { trial_end: trial.end } : {}),
        metadata: { purchase_id: String(purchase.purchase_id), user_id: String(purchase.user_id) },
        expand: ['latest_invoice.payments'],
      },
      { idempotencyKey: `purchase-${purchase.purchase_id}` },
    );
    const invoice = sub.latest_invoice as Stripe.Invoice | null;
    const payment = invoice?.payments?.data?.[0]?.payment?.payment_intent as
      Stripe.PaymentIntent | string | undefined;
    const pi = typeof payment === 'string' ? null : (payment ?? null);
    await this.purchases.attachReferences(purchase.purchase_id, {
      stripe_subscription_id: sub.id,
      subscription_id: sub.id,
      ...(pi ? { stripe_payment_intent_id: pi.id } : {}),
      payment_processor_id: invoice?.id ?? sub.id,
      current_period_end: periodEnd(sub) ?? undefined,
    });
    if (sub.status === 'active' || sub.status === 'trialing') {
      const done = await this.purchases.activate(purchase.purchase_id, {
        amount_paid: invoice?.amount_paid ?? 0,
        current_period_end: periodEnd(sub),
        payment_processor_id: invoice?.id,
        status: 'active',
      });
      return this.answer(done, done.status, null, account.publishableKey, amount);
    }
    if (pi?.status === 'requires_action')
      return this.answer(purchase, 'pending', pi.client_secret, account.publishableKey, amount);
    await account.stripe.subscriptions.cancel(sub.id).catch(() => undefined);
    throw new DomainError(
      402,
      'payment_declined',
      pi?.last_payment_error?.message ?? PAYMENT_MESSAGES.cardDeclined,
    );
  }

  /** A new card from Stripe.js is attached to the customer (renewals and invoices charge it); a saved one is. */
  private async attachCard(
    account: StripeAccount,
    card: { id: string; saved: boolean },
    customer: string,
  ): Promise<string> {
    if (card.saved) return card.id;
    const pm = await account.stripe.paymentMethods.retrieve(card.id);
    if (!pm.customer) await account.stripe.paymentMethods.attach(pm.id, { customer });
    else if (pm.customer !== customer) throw invalidMethod();
    return pm.id;
  }

  /**
   * A subscription's renewal that failed is paid by paying its Stripe invoice (never by a second charge, which
   * Stripe's own retries would repeat): with 3-D Secure the invoice's PaymentIntent goes to Stripe.js first. Once
   * paid, the renewal is recorded at once (words, period, value) and its invoice.paid finds it done.
   */
  private async payRenewal(
    me: Principal,
    invoice: Invoice,
    body: CheckoutAttemptBody,
  ): Promise<CheckoutResponse> {
    const purchase = invoice.purchase_id ? await this.purchases.findById(invoice.purchase_id) : null;
    if (!purchase || purchase.user_id !== me.user_id) throw notFound('Invoice', 'invoice_not_found');
    const account = await this.accounts.get(accountOf(purchase.organization_id));
    const card = await this.cardFor(me, account, body);
    try {
      const customer = purchase.stripe_customer_id ?? (await this.sources.customerId(me.user_id, account));
      const payment_method = await this.attachCard(account, card, customer);
      const paid = await account.stripe.invoices.pay(
        invoice.stripe_invoice_id!,
        { payment_method },
        { idempotencyKey: `renewal-${invoice.invoice_id}-${payment_method}` },
      );
      if (paid.status !== 'paid')
        throw new DomainError(402, 'payment_declined', PAYMENT_MESSAGES.cardDeclined);
      return await this.renewalPaid(account, invoice, paid);
    } catch (err) {
      if ((err as { code?: string }).code === 'invoice_payment_intent_requires_action') {
        const pi = await this.renewalPaymentIntent(account, invoice.stripe_invoice_id!);
        if (pi?.client_secret)
          return this.invoiceAnswer(
            invoice.invoice_id,
            invoice.status,
            invoice.amount,
            pi.client_secret,
            account.publishableKey,
          );
      }
      throw stripeFailure(err);
    }
  }

  /** Records a renewal invoice Stripe says is paid, and answers its row. */
  private async renewalPaid(
    account: StripeAccount,
    invoice: Invoice,
    paid: Stripe.Invoice,
  ): Promise<CheckoutResponse> {
    const periodEnd = paid.lines?.data?.[0]?.period?.end ?? paid.period_end;
    const pi = await this.renewalPaymentIntent(account, paid.id!, 'paid');
    await this.purchases.renew(invoice.purchase_id!, {
      period_end: periodEnd ? new Date(periodEnd * 1000) : invoice.period_end!,
      amount: paid.amount_paid,
      stripe_invoice_id: paid.id!,
      stripe_payment_intent_id: pi?.id ?? null,
      payment_method_id: PAYMENT_METHOD_IDS.card,
      paid_at: paid.status_transitions?.paid_at
        ? new Date(paid.status_transitions.paid_at * 1000)
        : new Date(),
    });
    const row = (await this.invoices.findByProviderPayment({ stripe_invoice_id: paid.id! }))!;
    return this.invoiceAnswer(row.invoice_id, row.status, row.amount, null, account.publishableKey);
  }

  /** The PaymentIntent of a Stripe invoice (its paid one, with `status`). */
  private async renewalPaymentIntent(
    account: StripeAccount,
    stripeInvoiceId: string,
    status?: 'paid',
  ): Promise<Stripe.PaymentIntent | null> {
    const payments = await account.stripe.invoicePayments.list({
      invoice: stripeInvoiceId,
      ...(status ? { status } : {}),
      limit: 1,
      expand: ['data.payment.payment_intent'],
    });
    const pi = payments.data[0]?.payment?.payment_intent;
    return pi && typeof pi !== 'string' ? pi : null;
  }

  /**
   * A PayPal subscription's failed renewal is collected by PayPal's own retries (the buyer updates the funding
   * source at PayPal): a card payment here would be charged a second time when PayPal's retry succeeds.
   */
  private async refusePayPalRenewal(invoice: Invoice): Promise<void> {
    if (!invoice.purchase_id || invoice.created_by !== null) return;
    const purchase = await this.purchases.findById(invoice.purchase_id);
    if (purchase?.provider === 'paypal')
      throw new DomainError(
        409,
        'invoice_paid_by_provider',
        'PayPal collects this renewal: please update your payment method in your PayPal account.',
      );
  }

  private async attemptInvoice(me: Principal, body: CheckoutAttemptBody): Promise<CheckoutResponse> {
    const invoice = await this.invoices.getForPayment(body.invoice_id!, me);
    if (invoice.stripe_invoice_id) return this.payRenewal(me, invoice, body);
    await this.refusePayPalRenewal(invoice);
    const account = await this.accounts.get(accountOf(null));
    const card = await this.cardFor(me, account, body);
    const customer = await this.sources.customerId(me.user_id, account);
    try {
      const pi = await account.stripe.paymentIntents.create(
        {
          amount: invoice.amount,
          currency: invoice.currency || 'usd',
          customer,
          payment_method: card.id,
          confirm: true,
          metadata: { invoice_id: String(invoice.invoice_id), user_id: String(me.user_id) },
        },
        { idempotencyKey: `invoice-${invoice.invoice_id}-${card.id}` },
      );
      if (pi.status === 'succeeded') {
        const paid = await this.invoices.markPaid(invoice.invoice_id, {
          payment_method_id: PAYMENT_METHOD_IDS.card,
          purchase_id: invoice.purchase_id,
          stripe_payment_intent_id: pi.id,
        });
        return this.invoiceAnswer(paid.invoice_id, paid.status, paid.amount, null, account.publishableKey);
      }
      if (pi.status === 'requires_action')
        return this.invoiceAnswer(
          invoice.invoice_id,
          invoice.status,
          invoice.amount,
          pi.client_secret,
          account.publishableKey,
        );
      throw new DomainError(402, 'payment_declined', PAYMENT_MESSAGES.cardDeclined);
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  private async captureInvoice(
    me: Principal,
    invoice_id: number,
    payment_intent_id: string | undefined,
  ): Promise<CheckoutResponse> {
    const invoice = await this.invoices.getForPayment(invoice_id, me);
    if (!payment_intent_id || !PI_ID.test(payment_intent_id))
      throw badInput('payment_intent_id is required to pay an invoice.');
    if (invoice.stripe_invoice_id) return this.captureRenewal(me, invoice, payment_intent_id);
    const account = await this.accounts.get(accountOf(null));
    try {
      const pi = await account.stripe.paymentIntents.retrieve(payment_intent_id);
      if (pi.metadata?.invoice_id !== String(invoice_id) || pi.metadata?.user_id !== String(me.user_id))
        throw notFound('Invoice');
      if (pi.status !== 'succeeded')
        throw new DomainError(402, 'payment_incomplete', PAYMENT_MESSAGES.paymentIncomplete);
      const paid = await this.invoices.markPaid(invoice_id, {
        payment_method_id: PAYMENT_METHOD_IDS.card,
        purchase_id: invoice.purchase_id,
        stripe_payment_intent_id: pi.id,
      });
      return this.invoiceAnswer(paid.invoice_id, paid.status, paid.amount, null, account.publishableKey);
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  /** A failed renewal's invoice whose PaymentIntent passed 3-D Secure in Stripe.js: recorded once Stripe says paid. */
  private async captureRenewal(
    me: Principal,
    invoice: Invoice,
    payment_intent_id: string,
  ): Promise<CheckoutResponse> {
    const purchase = invoice.purchase_id ? await this.purchases.findById(invoice.purchase_id) : null;
    if (!purchase || purchase.user_id !== me.user_id) throw notFound('Invoice', 'invoice_not_found');
    const account = await this.accounts.get(accountOf(purchase.organization_id));
    try {
      const pi = await this.renewalPaymentIntent(account, invoice.stripe_invoice_id!);
      if (!pi || pi.id !== payment_intent_id) throw notFound('Invoice', 'invoice_not_found');
      const paid = await account.stripe.invoices.retrieve(invoice.stripe_invoice_id!);
      if (pi.status !== 'succeeded' || paid.status !== 'paid')
        throw new DomainError(402, 'payment_incomplete', PAYMENT_MESSAGES.paymentIncomplete);
      return await this.renewalPaid(account, invoice, paid);
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  private answer(
    purchase: PurchaseView,
    status: string,
    client_secret: string | null,
    publishable_key: string | null,
    amount = purchase.amount,
  ): CheckoutResponse {
    return {
      purchase_id: purchase.purchase_id,
      invoice_id: null,
      status,
      amount,
      requires_action: client_secret !== null,
      client_secret,
      publishable_key,
    };
  }

  private invoiceAnswer(
    invoice_id: number,
    status: string,
    amount: number,
    client_secret: string | null,
    publishable_key: string | null,
  ): CheckoutResponse {
    return {
      purchase_id: null,
      invoice_id,
      status,
      amount,
      requires_action: client_secret !== null,
      client_secret,
      publishable_key,
    };
  }
}
