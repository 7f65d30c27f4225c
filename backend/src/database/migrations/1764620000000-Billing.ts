import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing: products (platform or one organization's), discounts and their redemptions, purchases and invoices.
 * Amounts are whole cents; provider ids (Stripe, PayPal) are kept beside the spec's fields so payments and
 * webhooks find their purchase, each unique so a replayed event cannot create a second one.
 */
export class Billing1764620000000 implements MigrationInterface {
  name = 'Billing1764620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE products (
        product_id serial PRIMARY KEY,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        description text NOT NULL,
        short_description varchar(500),
        price int NOT NULL CHECK (price > 0),
        sale_price int CHECK (sale_price > 0),
        currency varchar(3) NOT NULL DEFAULT 'usd',
        word_amount int CHECK (word_amount > 0),
        free_trial_words int CHECK (free_trial_words > 0),
        is_subscription boolean NOT NULL DEFAULT false,
        subscription_interval int CHECK (subscription_interval > 0),
        subscription_period varchar(8) CHECK (subscription_period IN ('day', 'month', 'year')),
        expiration_days int CHECK (expiration_days > 0),
        limit_per_user int CHECK (limit_per_user > 0),
        user_limit int CHECK (user_limit > 0),
        free_trial_period boolean NOT NULL DEFAULT false,
        free_trial_length int CHECK (free_trial_length > 0),
        free_trial_end timestamptz,
        available boolean NOT NULL DEFAULT true,
        stripe_product_id varchar(255),
        stripe_price_id varchar(255),
        paypal_product_id varchar(255),
        paypal_plan_id varchar(255),
        webhook_url varchar(2048),
        product_sku varchar(100),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX products_scope ON products (COALESCE(organization_id, 0), product_id)`);
    await q.query(`CREATE INDEX products_name_lower ON products (lower(name))`);

    await q.query(`
      CREATE TABLE discounts (
        discount_id serial PRIMARY KEY,
        code varchar(64) NOT NULL,
        type varchar(8) NOT NULL CHECK (type IN ('percent', 'fixed')),
        amount int NOT NULL CHECK (amount > 0 AND (type <> 'percent' OR amount <= 100)),
        product_id int REFERENCES products(product_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        usage_limit int CHECK (usage_limit > 0),
        usage_limit_per_user int CHECK (usage_limit_per_user > 0),
        times_used int NOT NULL DEFAULT 0 CHECK (times_used >= 0),
        starts_at timestamptz,
        expires_at timestamptz,
        active boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // Codes are typed by people: one code per spelling, whatever its case.
    await q.query(`CREATE UNIQUE INDEX discounts_code ON discounts (lower(code))`);

    await q.query(`
      CREATE TABLE purchases (
        purchase_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        product_id int NOT NULL REFERENCES products(product_id) ON DELETE RESTRICT,
        organization_id int REFERENCES organizations(organization_id) ON DELETE SET NULL,
        status varchar(16) NOT NULL
          CHECK (status IN ('active', 'completed', 'pending', 'cancelled', 'revoked', 'processing', 'failed')),
        amount int NOT NULL DEFAULT 0 CHECK (amount >= 0),
        currency varchar(3) NOT NULL DEFAULT 'usd',
        expiration_days int CHECK (expiration_days > 0),
        expires_at timestamptz,
        is_gift boolean NOT NULL DEFAULT false,
        payment_method_id int,
        cancel_reason varchar(1000),
        discount_id int REFERENCES discounts(discount_id) ON DELETE SET NULL,
        discount varchar(64),
        subscription_id varchar(255),
        free_trial_length int,
        subscription_interval int,
        subscription_period varchar(8),
        payment_processor_id varchar(255),
        provider varchar(16) CHECK (provider IN ('stripe', 'paypal', 'manual')),
        stripe_customer_id varchar(255),
        stripe_payment_intent_id varchar(255),
        stripe_subscription_id varchar(255),
        paypal_order_id varchar(255),
        paypal_subscription_id varchar(255),
        paypal_plan_id varchar(255),
        current_period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        cancelled_at timestamptz,
        revoked_at timestamptz,
        refunded_amount int NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
        paid_at timestamptz,
        created_by int REFERENCES users(user_id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX purchases_user ON purchases (user_id, "createdAt")`);
    await q.query(`CREATE INDEX purchases_product_status ON purchases (product_id, status)`);
    await q.query(`CREATE INDEX purchases_created ON purchases ("createdAt", purchase_id)`);
    for (const column of [
      'stripe_payment_intent_id',
      'stripe_subscription_id',
      'paypal_order_id',
      'paypal_subscription_id',
    ])
      await q.query(
        `CREATE UNIQUE INDEX purchases_${column} ON purchases (${column}) WHERE ${column} IS NOT NULL`,
      );

    await q.query(`
      CREATE TABLE discount_redemptions (
        redemption_id serial PRIMARY KEY,
        discount_id int NOT NULL REFERENCES discounts(discount_id) ON DELETE CASCADE,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        purchase_id int REFERENCES purchases(purchase_id) ON DELETE SET NULL,
        amount_off int NOT NULL CHECK (amount_off >= 0),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (discount_id, purchase_id)
      )`);
    await q.query(`CREATE INDEX discount_redemptions_user ON discount_redemptions (discount_id, user_id)`);

    await q.query(`
      CREATE TABLE invoices (
        invoice_id serial PRIMARY KEY,
        purchase_id int REFERENCES purchases(purchase_id) ON DELETE SET NULL,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        amount int NOT NULL CHECK (amount >= 0),
        currency varchar(3) NOT NULL DEFAULT 'usd',
        payment_method_id int,
        status varchar(16) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('completed', 'active', 'pending', 'failed')),
        expiration_date timestamptz,
        description varchar(500),
        stripe_invoice_id varchar(255),
        stripe_payment_intent_id varchar(255),
        paypal_capture_id varchar(255),
        period_end timestamptz,
        paid_at timestamptz,
        created_by int REFERENCES users(user_id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX invoices_user ON invoices (user_id, "createdAt")`);
    await q.query(`CREATE INDEX invoices_purchase ON invoices (purchase_id)`);
    for (const column of ['stripe_invoice_id', 'stripe_payment_intent_id', 'paypal_capture_id'])
      await q.query(
        `CREATE UNIQUE INDEX invoices_${column} ON invoices (${column}) WHERE ${column} IS NOT NULL`,
      );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['invoices', 'discount_redemptions', 'purchases', 'discounts', 'products'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
