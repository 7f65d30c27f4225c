import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { BILLING_MESSAGES } from '@avatar-studio/contracts';
import { hasStaffRole } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { badInput, forbidden, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { UnitOfWork, type StatementRead } from '../../database/unit-of-work';
import { APP_ENV, AppEnv } from '../../config/env';
import { AuditService } from '../audit/audit.service';
import type {
  ProductInputDto,
  ProductPageResponse,
  ProductResponse,
  ProductsQuery,
  UpdateProductDto,
} from './dto/products.dto';
import { Product } from './product.entity';
import { applyProductFormRules, chargePrice, validateProduct, type ProductInput } from './products-rules';
import { ProductsRepository, type ProductFields } from './products.repository';

/** A product as other modules see it (checkout, purchases, discounts): its row's fields, never the entity class. */
export type ProductView = Product;

const PRODUCTS_PAGE_DEFAULT = 20;
/** A scope sells at most this many products at once on its pricing page. */
const AVAILABLE_LIMIT = 100;

/** Who manages which products: staff every product; an organization's Admin that organization's. */
type ProductManager = { staff: true } | { staff: false; organization_id: number };

/**
 * Products: the back office's list and form (with the save rules enforced here), what a scope sells, and the
 * product a checkout may sell (for the payment side).
 */
@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly transactions: UnitOfWork,
    private readonly audit: AuditService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  findById(product_id: number, manager?: EntityManager): Promise<Product | null> {
    return this.products.findById(product_id, manager);
  }

  /** Product names by id, for lists of purchases. */
  async names(ids: number[]): Promise<Map<number, string>> {
    return byProduct(await this.products.namesByIds(ids));
  }

  /** names as a read to send with others (UnitOfWork.readTogether). */
  namesRead(ids: number[]): StatementRead<Map<number, string>> {
    const names = this.products.namesByIdsRead(ids);
    return { statement: names.statement, read: (rows) => byProduct(names.read(rows)) };
  }

  /** Reads and locks the product row in the caller's transaction (purchases of it then count one at a time). */
  lockForPurchase(product_id: number, manager: EntityManager): Promise<Product | null> {
    return this.products.findByIdForUpdate(product_id, manager);
  }

  /**
   * The product the caller may buy: available, and a platform product or one of the organization the caller is
   * in (the scope of the request). Anything else is not found, as for a missing one.
   */
  async getForPurchase(product_id: number, principal: Principal): Promise<Product> {
    const product = await this.products.findById(product_id);
    if (!product || !product.available || !sellsTo(product, principal))
      throw notFound('Product', 'product_not_found');
    return product;
  }

  /** What the caller's scope sells: the organization's available products, or the platform's in Personal. */
  async available(principal: Principal): Promise<Product[]> {
    return this.products.available(principal.org?.organization_id ?? null, AVAILABLE_LIMIT);
  }

  async list(principal: Principal, query: ProductsQuery): Promise<ProductPageResponse> {
    const scope = this.managerOf(principal);
    const page = toPage(query, PRODUCTS_PAGE_DEFAULT);
    const { rows, total } = await this.products.page(
      {
        query: query.query,
        organization_id: scope.staff ? principal.org?.organization_id : scope.organization_id,
      },
      { by: query.sort ?? 'product_id', direction: query.direction === 'desc' ? 'DESC' : 'ASC' },
      page,
    );
    return { products: rows, total, page: page.page, limit: page.limit };
  }

  /**
   * One product: for staff and the Admin of its organization the whole record, for a customer only a product they
   * may buy (the checkout page shows it).
   */
  async getVisible(product_id: number, principal: Principal): Promise<ProductResponse> {
    const product = await this.products.findById(product_id);
    if (!product) throw notFound('Product', 'product_not_found');
    if (this.manages(principal, product)) return this.withSecret(product, principal);
    if (!product.available || !sellsTo(product, principal)) throw notFound('Product', 'product_not_found');
    return { product };
  }

  async create(principal: Principal, body: ProductInputDto): Promise<ProductResponse> {
    const scope = this.managerOf(principal);
    const organization_id = scope.staff ? (body.organization_id ?? null) : scope.organization_id;
    const fields = this.checked({ ...body }, null);
    const product = await this.transactions.run(async (m) => {
      const saved = await this.products.insert({ ...fields, organization_id }, m);
      await this.audit.record(
        'product.saved',
        { target_type: 'product', target_id: saved.product_id, organization_id, details: { created: true } },
        m,
      );
      return saved;
    });
    return this.withSecret(product, principal);
  }

  async update(principal: Principal, body: UpdateProductDto): Promise<ProductResponse> {
    this.managerOf(principal);
    const { product_id, ...changes } = body;
    const product = await this.transactions.run(async (m) => {
      const existing = await this.products.findByIdForUpdate(product_id, m);
      if (!existing || !this.manages(principal, existing)) throw notFound('Product', 'product_not_found');
      const organization_id =
        hasStaffRole(principal.staffRole, 'manager') && changes.organization_id !== undefined
          ? changes.organization_id
          : existing.organization_id;
      const fields = this.checked({ ...changes }, existing);
      await this.products.update(product_id, { ...fields, organization_id }, m);
      await this.audit.record(
        'product.saved',
        {
          target_type: 'product',
          target_id: product_id,
          organization_id,
          details: { changed: Object.keys(changes).slice(0, 30) },
        },
        m,
      );
      return (await this.products.findById(product_id, m))!;
    });
    return this.withSecret(product, principal);
  }

  /**
   * The key that signs a product's webhook calls. Derived from APP_SECRET and the product id (HMAC), so nothing
   * is stored and no two products share one; only staff admins are shown it.
   */
  webhookSecret(product_id: number): string {
    return createHmac('sha256', this.env.appSecret).update(`product-webhook:${product_id}`).digest('hex');
  }

  /** The form rules, then the save rules on the product as it would be saved; every failure in one 400. */
  private checked(changes: ProductInput, existing: Product | null): ProductFields {
    const base: ProductInput = existing ? { ...existing } : {};
    const merged: ProductInput = { ...base };
    for (const [key, value] of Object.entries(changes))
      if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
    // An update that leaves word_amount out keeps the stored one; the switch only counts when sent.
    if (changes.unlimited === undefined)
      merged.unlimited = merged.word_amount === null || merged.word_amount === undefined;
    const shaped = applyProductFormRules(merged);
    const errors = validateProduct(shaped);
    if (errors.length)
      throw badInput(`${BILLING_MESSAGES.validationErrors} ${errors.join(' ')}`, 'product_invalid', {
        errors,
      });
    if (shaped.webhook_url && !/^https?:\/\/[^\s]+$/i.test(shaped.webhook_url))
      throw badInput(
        `${BILLING_MESSAGES.validationErrors} The webhook URL must start with http:// or https://.`,
        'product_invalid',
        {
          errors: ['The webhook URL must start with http:// or https://.'],
        },
      );
    return {
      organization_id: existing?.organization_id ?? null,
      name: (shaped.name as string).trim(),
      description: (shaped.description as string).trim(),
      short_description: shaped.short_description ?? null,
      price: shaped.price as number,
      sale_price: shaped.sale_price ?? null,
      currency: existing?.currency ?? 'usd',
      word_amount: shaped.unlimited ? null : (shaped.word_amount ?? null),
      free_trial_words: shaped.free_trial_words ?? null,
      is_subscription: shaped.is_subscription ?? false,
      subscription_interval: shaped.subscription_interval ?? null,
      subscription_period: (shaped.subscription_period as Product['subscription_period']) ?? null,
      expiration_days: shaped.expiration_days ?? null,
      limit_per_user: shaped.limit_per_user ?? null,
      user_limit: shaped.user_limit ?? null,
      free_trial_period: shaped.free_trial_period ?? false,
      free_trial_length: shaped.free_trial_length ?? null,
      free_trial_end: shaped.free_trial_end ?? null,
      available: shaped.available ?? true,
      stripe_product_id: shaped.stripe_product_id ?? null,
      stripe_price_id: shaped.stripe_price_id ?? null,
      paypal_product_id: shaped.paypal_product_id ?? null,
      paypal_plan_id: shaped.paypal_plan_id ?? null,
      webhook_url: shaped.webhook_url ?? null,
      product_sku: shaped.product_sku ?? null,
    };
  }

  private managerOf(principal: Principal): ProductManager {
    if (hasStaffRole(principal.staffRole, 'manager')) return { staff: true };
    if (principal.org?.role === 'Admin' && principal.org.member)
      return { staff: false, organization_id: principal.org.organization_id };
    throw forbidden();
  }

  private manages(principal: Principal, product: Product): boolean {
    if (hasStaffRole(principal.staffRole, 'manager')) return true;
    return (
      product.organization_id !== null &&
      principal.org?.role === 'Admin' &&
      principal.org.member &&
      principal.org.organization_id === product.organization_id
    );
  }

  private withSecret(product: Product, principal: Principal): ProductResponse {
    return hasStaffRole(principal.staffRole, 'admin') && product.webhook_url
      ? { product, webhook_secret: this.webhookSecret(product.product_id) }
      : { product };
  }
}

/** A platform product sells in every scope; an organization's only in that organization's scope. */
function sellsTo(product: Product, principal: Principal): boolean {
  return product.organization_id === null || product.organization_id === principal.org?.organization_id;
}

export { chargePrice };

function byProduct(rows: { product_id: number; name: string }[]): Map<number, string> {
  return new Map(rows.map((p) => [p.product_id, p.name]));
}
