import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { forbidden } from '../../common/errors/domain-error';
import type { StripePriceDto, StripeProductDto } from './dto/payments.dto';
import { accountOf, StripeAccounts, stripeFailure } from './stripe-accounts';

/** Most products or prices one lookup lists (the product form's select). */
const LOOKUP_LIMIT = 100;

/**
 * The card provider lookups of the product form: Stripe products and their prices, read with the platform's
 * keys by staff, or with an organization's keys by that organization's admins (`?organization_id=`).
 */
@Injectable()
export class StripeCatalogService {
  constructor(private readonly accounts: StripeAccounts) {}

  async products(me: Principal): Promise<StripeProductDto[]> {
    const account = await this.accounts.get(this.accountFor(me));
    try {
      const list = await account.stripe.products.list({ limit: LOOKUP_LIMIT, active: true });
      return list.data.map((p) => ({ id: p.id, name: p.name, active: p.active }));
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  async prices(me: Principal, stripe_product_id: string): Promise<StripePriceDto[]> {
    const account = await this.accounts.get(this.accountFor(me));
    try {
      const list = await account.stripe.prices.list({
        product: stripe_product_id,
        active: true,
        limit: LOOKUP_LIMIT,
      });
      return list.data.map((p) => ({
        id: p.id,
        unit_amount: p.unit_amount,
        currency: p.currency,
        recurring: p.recurring
          ? { interval: p.recurring.interval, interval_count: p.recurring.interval_count }
          : null,
      }));
    } catch (err) {
      throw stripeFailure(err);
    }
  }

  private accountFor(me: Principal): string {
    if (me.org) {
      if (me.org.role !== 'Admin') throw forbidden();
      return accountOf(me.org.organization_id);
    }
    if (!me.staffRole) throw forbidden();
    return accountOf(null);
  }
}
