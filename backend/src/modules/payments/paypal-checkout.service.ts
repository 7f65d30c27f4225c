import { Injectable } from '@nestjs/common';
import { BILLING_MESSAGES, PAYMENT_MESSAGES, PAYMENT_METHOD_IDS } from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { badInput, DomainError, notFound } from '../../common/errors/domain-error';
import type { Product } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import type { Purchase } from '../purchases/purchase.entity';
import { PurchasesService } from '../purchases/purchases.service';
import { trialOf } from './checkout.service';
import type { PayPalCaptureBody, PayPalOrderBody } from './dto/payments.dto';
import { PayPalClient, PayPalError, PayPalInterval, paypalCents } from './paypal.client';

const INTERVALS: Record<string, PayPalInterval> = { day: 'DAY', month: 'MONTH', year: 'YEAR' };

const paypalFailure = (err: unknown): DomainError => {
  if (err instanceof DomainError) return err;
  if (err instanceof PayPalError && err.issue === 'ORDER_NOT_APPROVED')
    return new DomainError(402, 'payment_incomplete', PAYMENT_MESSAGES.paymentIncomplete);
  if (err instanceof PayPalError && (err.status === 422 || err.status === 400))
    return new DomainError(402, 'payment_declined', BILLING_MESSAGES.purchaseDefault);
  return new DomainError(
    502,
    'payment_provider_error',
    'PayPal did not answer as expected. Please try again in a moment.',
  );
};

/**
 * PayPal checkout: one-off products through Orders v2 (create answers the orderID PayPal's buttons approve,
 * capture answers our purchase_id), subscriptions through a billing plan made for the purchase (its price is the
 * one computed here) that PayPal's buttons subscribe to. PayPal sells platform products only.
 */
@Injectable()
export class PayPalCheckoutService {
  constructor(
    private readonly products: ProductsService,
    private readonly purchases: PurchasesService,
    private readonly paypal: PayPalClient,
  ) {}

  async createOrder(me: Principal, body: PayPalOrderBody): Promise<{ orderID: string }> {
    const product = await this.productFor(me, body.product_id);
    if (product.is_subscription) throw badInput('This product is a subscription: subscribe to it instead.');
    const { purchase, amount } = await this.pending(me, product, body.discountCode);
    try {
      if (amount === 0) throw badInput('This order is free: choose the card checkout to complete it.');
      const order = await this.paypal.createOrder({
        amountCents: amount,
        currency: product.currency || 'usd',
        custom_id: String(purchase.purchase_id),
        description: product.name,
      });
      await this.purchases.attachReferences(purchase.purchase_id, { paypal_order_id: order.id });
      return { orderID: order.id };
    } catch (err) {
      await this.purchases
        .markFailed(purchase.purchase_id, (err as Error).message.slice(0, 500))
        .catch(() => undefined);
      throw paypalFailure(err);
    }
  }

  async captureOrder(me: Principal, body: PayPalCaptureBody): Promise<{ purchase_id: number }> {
    if (!body.orderID) throw badInput('orderID is required.');
    const purchase = await this.purchases.findByReference('paypal_order_id', body.orderID);
    if (!purchase || purchase.user_id !== me.user_id) throw notFound('Purchase');
    if (['active', 'completed', 'cancelled', 'revoked'].includes(purchase.status))
      return { purchase_id: purchase.purchase_id };
    try {
      let order;
      try {
        order = await this.paypal.captureOrder(body.orderID, `capture-${purchase.purchase_id}`);
      } catch (err) {
        if (!(err instanceof PayPalError && err.issue === 'ORDER_ALREADY_CAPTURED')) throw err;
        order = await this.paypal.getOrder(body.orderID);
      }
      const capture = order.purchase_units[0]?.payments?.captures?.[0];
      if (order.status !== 'COMPLETED' || !capture || capture.status !== 'COMPLETED')
        throw new DomainError(402, 'payment_incomplete', PAYMENT_MESSAGES.paymentIncomplete);
      await this.purchases.activate(purchase.purchase_id, {
        amount_paid: paypalCents(capture.amount.value),
        payment_processor_id: capture.id,
      });
      return { purchase_id: purchase.purchase_id };
    } catch (err) {
      throw paypalFailure(err);
    }
  }

  async createSubscription(
    me: Principal,
    body: PayPalOrderBody,
  ): Promise<{ plan_id: string; purchase_id: number }> {
    const product = await this.productFor(me, body.product_id);
    if (!product.is_subscription) throw badInput('This product is not a subscription.');
    const { purchase, amount } = await this.pending(me, product, body.discountCode);
    try {
      const trial = trialOf(product);
      const trialDays =
        trial && 'days' in trial
          ? trial.days
          : trial
            ? Math.max(1, Math.ceil((trial.end * 1000 - Date.now()) / 86_400_000))
            : null;
      const paypalProduct = product.paypal_product_id ?? (await this.paypal.createProduct(product.name)).id;
      const plan = await this.paypal.createPlan({
        product_id: paypalProduct,
        name: `${product.name} #${purchase.purchase_id}`,
        amountCents: amount,
        currency: product.currency || 'usd',
        interval: INTERVALS[product.subscription_period ?? 'month'] ?? 'MONTH',
        intervalCount: product.subscription_interval ?? 1,
        trialDays,
      });
      await this.purchases.attachReferences(purchase.purchase_id, { paypal_plan_id: plan.id });
      return { plan_id: plan.id, purchase_id: purchase.purchase_id };
    } catch (err) {
      await this.purchases
        .markFailed(purchase.purchase_id, (err as Error).message.slice(0, 500))
        .catch(() => undefined);
      throw paypalFailure(err);
    }
  }

  async captureSubscription(me: Principal, body: PayPalCaptureBody): Promise<{ purchase_id: number }> {
    if (!body.subscriptionID || !body.purchase_id)
      throw badInput('subscriptionID and purchase_id are required.');
    const purchase = await this.purchases.findById(body.purchase_id);
    if (!purchase || purchase.user_id !== me.user_id || purchase.provider !== 'paypal')
      throw notFound('Purchase');
    if (['active', 'completed', 'cancelled', 'revoked'].includes(purchase.status))
      return { purchase_id: purchase.purchase_id };
    try {
      const sub = await this.paypal.getSubscription(body.subscriptionID);
      // The subscription must be to the plan made for this purchase, so its price is the one computed here.
      if (sub.plan_id !== purchase.paypal_plan_id) throw notFound('Purchase');
      if (sub.status !== 'ACTIVE')
        throw new DomainError(402, 'payment_incomplete', PAYMENT_MESSAGES.paymentIncomplete);
      await this.purchases.attachReferences(purchase.purchase_id, {
        paypal_subscription_id: sub.id,
        subscription_id: sub.id,
      });
      const next = sub.billing_info?.next_billing_time ? new Date(sub.billing_info.next_billing_time) : null;
      await this.purchases.activate(purchase.purchase_id, {
        amount_paid: sub.billing_info?.last_payment
          ? paypalCents(sub.billing_info.last_payment.amount.value)
          : 0,
        current_period_end: next,
        payment_processor_id: sub.id,
        status: 'active',
      });
      return { purchase_id: purchase.purchase_id };
    } catch (err) {
      throw paypalFailure(err);
    }
  }

  private async productFor(me: Principal, product_id: number): Promise<Product> {
    let product: Product;
    try {
      product = await this.products.getForPurchase(product_id, me);
    } catch (err) {
      if (err instanceof DomainError && err.status === 404)
        throw new DomainError(404, 'product_not_found', PAYMENT_MESSAGES.productNotFound);
      throw err;
    }
    // An organization's products are paid to its own Stripe account; PayPal is the platform's.
    if (product.organization_id)
      throw new DomainError(400, 'invalid_payment_method', BILLING_MESSAGES.invalidPaymentMethod);
    return product;
  }

  private async pending(
    me: Principal,
    product: Product,
    code: string | null | undefined,
  ): Promise<{ purchase: Purchase; amount: number }> {
    if (!(await this.paypal.clientId()))
      throw new DomainError(503, 'payments_not_configured', PAYMENT_MESSAGES.paymentsNotConfigured);
    return this.purchases.createPending({
      user_id: me.user_id,
      product,
      payment_method_id: PAYMENT_METHOD_IDS.paypal,
      provider: 'paypal',
      discount_code: code?.trim() || null,
    });
  }
}
