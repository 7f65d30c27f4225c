import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments: webhook events stored by provider event id (unique, so a replay is recognised), each user's customer
 * at a Stripe account (the platform's or an organization's), and saved cards (payment sources).
 */
export class Payments1764630000000 implements MigrationInterface {
  name = 'Payments1764630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_events (
        payment_event_id bigserial PRIMARY KEY,
        provider varchar(16) NOT NULL CHECK (provider IN ('stripe', 'paypal')),
        account varchar(32) NOT NULL,
        event_id varchar(255) NOT NULL,
        type varchar(100) NOT NULL,
        payload jsonb NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'received' CHECK (status IN ('received', 'processed', 'ignored', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        error varchar(1000),
        provider_created_at timestamptz,
        received_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        UNIQUE (provider, account, event_id)
      )`);
    await q.query(`CREATE INDEX payment_events_status ON payment_events (status, received_at)`);
    await q.query(`
      CREATE TABLE payment_customers (
        payment_customer_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        account varchar(32) NOT NULL,
        stripe_customer_id varchar(255) NOT NULL UNIQUE,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, account)
      )`);
    await q.query(`
      CREATE TABLE payment_sources (
        payment_source_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        account varchar(32) NOT NULL,
        stripe_customer_id varchar(255) NOT NULL,
        stripe_payment_method_id varchar(255) NOT NULL UNIQUE,
        brand varchar(32) NOT NULL,
        last4 varchar(4) NOT NULL,
        exp_month int NOT NULL,
        exp_year int NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payment_sources_user ON payment_sources (user_id, account)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['payment_sources', 'payment_customers', 'payment_events'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
