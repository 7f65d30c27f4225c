import { Injectable } from '@nestjs/common';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { BILLING_MESSAGES, type DiscountType } from '@avatar-studio/contracts';
import { badInput, conflict, DomainError, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditService } from '../audit/audit.service';
import { chargePrice } from '../products/products-rules';
import { ProductsService, type ProductView } from '../products/products.service';
import type { Principal } from '../../common/auth/principal';
import { amountOff, discountRefusal } from './discount-rules';
import type { Discount } from './discount.entity';
import { DiscountsRepository, type DiscountFields } from './discounts.repository';
import type { DiscountInputDto, DiscountsQuery, UpdateDiscountDto } from './dto/discounts.dto';

export interface DiscountQuote {
  discount_id: number;
  code: string;
  type: DiscountType;
  amount: number;
  /** Cents before the discount. */
  price: number;
  amount_off: number;
  /** Cents to pay. */
  discounted_price: number;
}

const DISCOUNTS_PAGE_DEFAULT = 20;

const invalid = () => new DomainError(400, 'discount_invalid', BILLING_MESSAGES.discountInvalid);
const exhausted = () => new DomainError(412, 'discount_exhausted', BILLING_MESSAGES.discountExhausted);

/** Discount codes: the price a code gives, its redemption with a purchase, and the staff's management. */
@Injectable()
export class DiscountsService {
  constructor(
    private readonly discounts: DiscountsRepository,
    private readonly products: ProductsService,
    private readonly transactions: UnitOfWork,
    private readonly audit: AuditService,
  ) {}

  /** GET /discounts/code/{code}?product_id=: the product the caller may buy, and the price the code gives. */
  async quoteForCaller(code: string, product_id: number, principal: Principal): Promise<DiscountQuote> {
    const product = await this.products.getForPurchase(product_id, principal);
    return this.quote(code, product, principal.user_id);
  }

  /** The price the code gives for this product and user, without using it: 400 invalid, 412 used up. */
  async quote(
    code: string,
    product: ProductView,
    user_id: number,
    manager?: EntityManager,
  ): Promise<DiscountQuote> {
    const discount = await this.discounts.findByCode(code.trim(), manager);
    return this.check(discount, product, user_id, manager);
  }

  /** Locks the code, checks it again and records its use by the purchase, in the caller's transaction. */
  async redeem(
    code: string,
    product: ProductView,
    user_id: number,
    purchase_id: number,
    manager: EntityManager,
  ): Promise<DiscountQuote> {
    const discount = await this.discounts.findByCode(code.trim(), manager, true);
    const quote = await this.check(discount, product, user_id, manager);
    await this.discounts.redeem(
      { discount_id: quote.discount_id, user_id, purchase_id, amount_off: quote.amount_off },
      manager,
    );
    return quote;
  }

  release(discount_id: number, purchase_id: number, manager: EntityManager): Promise<void> {
    return this.discounts.release(discount_id, purchase_id, manager);
  }

  private async check(
    discount: Discount | null,
    product: ProductView,
    user_id: number,
    manager?: EntityManager,
  ): Promise<DiscountQuote> {
    if (!discount) throw invalid();
    const uses =
      discount.usage_limit_per_user === null
        ? 0
        : await this.discounts.countForUser(discount.discount_id, user_id, manager);
    const refusal = discountRefusal(discount, product, uses, new Date());
    if (refusal === 'invalid') throw invalid();
    if (refusal === 'exhausted') throw exhausted();
    const price = chargePrice(product);
    const off = amountOff(price, discount);
    return {
      discount_id: discount.discount_id,
      code: discount.code,
      type: discount.type,
      amount: discount.amount,
      price,
      amount_off: off,
      discounted_price: price - off,
    };
  }

  // ---------------------------------------------------------------- staff

  async list(query: DiscountsQuery) {
    const page = toPage(query, DISCOUNTS_PAGE_DEFAULT);
    const { rows, total } = await this.discounts.page(
      { query: query.query, organization_id: query.for_organization_id },
      page,
    );
    return { discounts: rows, total, page: page.page, limit: page.limit };
  }

  async get(discount_id: number): Promise<{ discount: Discount }> {
    const discount = await this.discounts.findById(discount_id);
    if (!discount) throw notFound('Discount', 'discount_not_found');
    return { discount };
  }

  async create(body: DiscountInputDto): Promise<{ discount: Discount }> {
    const fields = await this.checkFields(body, null);
    return this.save(async (m) => {
      const saved = await this.discounts.insert(fields as DiscountFields, m);
      await this.audit.record(
        'discount.saved',
        {
          target_type: 'discount',
          target_id: saved.discount_id,
          details: { code: saved.code, created: true },
        },
        m,
      );
      return saved.discount_id;
    });
  }

  async update(body: UpdateDiscountDto): Promise<{ discount: Discount }> {
    const { discount_id, ...changes } = body;
    const existing = await this.discounts.findById(discount_id);
    if (!existing) throw notFound('Discount', 'discount_not_found');
    const fields = await this.checkFields(changes, existing);
    return this.save(async (m) => {
      await this.discounts.update(discount_id, fields, m);
      await this.audit.record(
        'discount.saved',
        { target_type: 'discount', target_id: discount_id, details: { code: fields.code ?? existing.code } },
        m,
      );
      return discount_id;
    });
  }

  async remove(discount_id: number): Promise<void> {
    const existing = await this.discounts.findById(discount_id);
    if (!existing) throw notFound('Discount', 'discount_not_found');
    // A code that was used is kept (purchases name it); it is switched off instead.
    await this.transactions.run(async (m) => {
      await this.discounts.update(discount_id, { active: false }, m);
      await this.audit.record(
        'discount.saved',
        { target_type: 'discount', target_id: discount_id, details: { code: existing.code, active: false } },
        m,
      );
    });
  }

  private async save(work: (m: EntityManager) => Promise<number>): Promise<{ discount: Discount }> {
    try {
      const id = await this.transactions.run(work);
      return { discount: (await this.discounts.findById(id))! };
    } catch (err) {
      if (err instanceof QueryFailedError && (err as QueryFailedError & { code?: string }).code === '23505')
        throw conflict('A discount with this code already exists.', 'already_exists');
      throw err;
    }
  }

  private async checkFields(
    body: Partial<DiscountInputDto>,
    existing: Discount | null,
  ): Promise<Partial<DiscountFields>> {
    const merged = { ...(existing ?? {}), ...stripUndefined(body) } as Partial<Discount>;
    const errors: string[] = [];
    if (!merged.code || !/^[A-Za-z0-9_-]{1,64}$/.test(merged.code))
      errors.push('Code must be 1 to 64 letters, digits, - or _.');
    if (merged.type !== 'percent' && merged.type !== 'fixed') errors.push('Type must be percent or fixed.');
    if (!Number.isInteger(merged.amount) || (merged.amount as number) < 1)
      errors.push('Amount must be a whole number above 0.');
    else if (merged.type === 'percent' && (merged.amount as number) > 100)
      errors.push('A percent discount must be 100 or less.');
    if (merged.starts_at && merged.expires_at && merged.starts_at >= merged.expires_at)
      errors.push('The start must be before the expiry.');
    if (errors.length)
      throw badInput(`${BILLING_MESSAGES.validationErrors} ${errors.join(' ')}`, 'invalid_values', {
        errors,
      });
    if (merged.product_id !== null && merged.product_id !== undefined) {
      const product = await this.products.findById(merged.product_id);
      if (!product) throw notFound('Product', 'product_not_found');
      // A product's code belongs where the product is sold.
      merged.organization_id = product.organization_id;
    }
    return {
      code: merged.code,
      type: merged.type,
      amount: merged.amount,
      product_id: merged.product_id ?? null,
      organization_id: merged.organization_id ?? null,
      usage_limit: merged.usage_limit ?? null,
      usage_limit_per_user: merged.usage_limit_per_user ?? null,
      starts_at: merged.starts_at ?? null,
      expires_at: merged.expires_at ?? null,
      active: merged.active ?? true,
    };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
