import { Injectable, Logger } from '@nestjs/common';
import { PAYMENT_MESSAGES } from '@avatar-studio/contracts';
import { DomainError, notFound } from '../../common/errors/domain-error';
import type { Principal } from '../../common/auth/principal';
import { UsersService } from '../users/users.service';
import type { PaymentSourceDto, SetupIntentResponse } from './dto/payments.dto';
import type { PaymentSource } from './payment-source.entity';
import { MAX_PAYMENT_SOURCES, PaymentsRepository } from './payments.repository';
import {
  accountOf,
  organizationOfAccount,
  PLATFORM_ACCOUNT,
  StripeAccount,
  StripeAccounts,
  stripeFailure,
} from './stripe-accounts';

export const toSourceDto = (s: PaymentSource): PaymentSourceDto => ({
  payment_source_id: s.payment_source_id,
  brand: s.brand,
  last4: s.last4,
  exp_month: s.exp_month,
  exp_year: s.exp_year,
  organization_id: organizationOfAccount(s.account),
  createdAt: s.createdAt,
});

/**
 * Saved cards ("payment sources"): a card confirmed by Stripe.js on a SetupIntent of the user's Stripe customer,
 * kept so later checkouts charge it without typing it again. Each user has one customer per Stripe account.
 */
@Injectable()
export class PaymentSourcesService {
  private readonly logger = new Logger('PaymentSources');

  constructor(
    private readonly repo: PaymentsRepository,
    private readonly accounts: StripeAccounts,
    private readonly users: UsersService,
  ) {}

  /** The account cards are saved to in the caller's scope: the organization's when it has its own keys. */
  async scopeAccount(me: Principal): Promise<StripeAccount> {
    if (me.org) {
      const own = await this.accounts.find(accountOf(me.org.organization_id));
      if (own) return own;
    }
    return this.accounts.get(PLATFORM_ACCOUNT);
  }

  /** The user's Stripe customer at the account, created on first use. */
  async customerId(user_id: number, account: StripeAccount): Promise<string> {
    const stored = await this.repo.findCustomer(user_id, account.account);
    if (stored) return stored.stripe_customer_id;
    const user = await this.users.toPublicUser(user_id);
    try {
      const customer = await account.stripe.customers.create(
        {
          email: user.email,
          name: [user.name, user.last_name].filter(Boolean).join(' ') || undefined,
          metadata: { user_id: String(user_id) },
        },
        // Two first checkouts at once make one customer.
        { idempotencyKey: `customer-${account.account}-${user_id}` },
      );
      return (await this.repo.saveCustomer(user_id, account.account, customer.id)).stripe_customer_id;
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  async list(me: Principal): Promise<PaymentSourceDto[]> {
    return (await this.repo.listSources(me.user_id)).map(toSourceDto);
  }

  /** Starts saving a card: a SetupIntent whose client secret Stripe.js confirms with the card typed. */
  async setup(me: Principal): Promise<SetupIntentResponse> {
    const account = await this.scopeAccount(me);
    if ((await this.repo.countSources(me.user_id, account.account)) >= MAX_PAYMENT_SOURCES)
      throw new DomainError(400, 'bad_input', `You can keep up to ${MAX_PAYMENT_SOURCES} saved cards.`);
    const customer = await this.customerId(me.user_id, account);
    try {
      const intent = await account.stripe.setupIntents.create({
        customer,
        usage: 'off_session',
        metadata: { user_id: String(me.user_id) },
      });
      return {
        client_secret: intent.client_secret!,
        setup_intent_id: intent.id,
        publishable_key: account.publishableKey,
      };
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  /** Stores the card of a SetupIntent that Stripe.js confirmed for the caller's own customer. */
  async save(me: Principal, setup_intent_id: string): Promise<PaymentSourceDto> {
    const account = await this.scopeAccount(me);
    const customer = await this.repo.findCustomer(me.user_id, account.account);
    if (!customer) throw notFound('Setup intent');
    let intent;
    try {
      intent = await account.stripe.setupIntents.retrieve(setup_intent_id);
    } catch (err) {
      if (stripeFailure(err).status === 400) throw notFound('Setup intent');
      throw stripeFailure(err);
    }
    // Another customer's SetupIntent is as unknown to this caller as a missing one.
    if (intent.customer !== customer.stripe_customer_id) throw notFound('Setup intent');
    if (intent.status !== 'succeeded' || !intent.payment_method)
      throw new DomainError(400, 'payment_incomplete', 'The card has not been confirmed yet.');
    const pmId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method.id;
    try {
      const pm = await account.stripe.paymentMethods.retrieve(pmId);
      if (!pm.card) throw new DomainError(400, 'invalid_payment_method', 'Only cards can be saved.');
      if (!pm.customer)
        await account.stripe.paymentMethods.attach(pmId, { customer: customer.stripe_customer_id });
      const source = await this.repo.saveSource({
        user_id: me.user_id,
        account: account.account,
        stripe_customer_id: customer.stripe_customer_id,
        stripe_payment_method_id: pm.id,
        brand: pm.card.brand,
        last4: pm.card.last4,
        exp_month: pm.card.exp_month,
        exp_year: pm.card.exp_year,
      });
      if (source.user_id !== me.user_id) throw notFound('Setup intent');
      return toSourceDto(source);
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  /** Removes a saved card (detached at Stripe first); the spec's Spanish sentence when that fails. */
  async remove(me: Principal, payment_source_id: number): Promise<void> {
    const source = await this.repo.findSource(me.user_id, payment_source_id);
    if (!source) throw notFound('Payment source');
    const account = await this.accounts.find(source.account);
    try {
      if (account) await account.stripe.paymentMethods.detach(source.stripe_payment_method_id);
    } catch (err) {
      const failure = stripeFailure(err);
      // Already detached at Stripe (or gone): the wanted state, the row goes too.
      if (failure.status !== 400) {
        this.logger.warn(`Saved card ${payment_source_id} was not detached: ${(err as Error).message}`);
        throw new DomainError(
          502,
          'payment_source_delete_failed',
          PAYMENT_MESSAGES.paymentSourceDeleteFailed,
        );
      }
    }
    await this.repo.deleteSource(payment_source_id);
  }

  /** A saved card of the caller, for a checkout at `account`; 404 when it is not theirs. */
  async forCheckout(user_id: number, payment_source_id: number): Promise<PaymentSource> {
    const source = await this.repo.findSource(user_id, payment_source_id);
    if (!source) throw notFound('Payment source');
    return source;
  }
}
