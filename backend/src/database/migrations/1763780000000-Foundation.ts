import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, sessions, staff, app config, files and organizations. */
export class Foundation1763780000000 implements MigrationInterface {
  name = 'Foundation1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        organization_id serial PRIMARY KEY,
        name varchar(120) NOT NULL,
        slug varchar(140) NOT NULL UNIQUE,
        tagline varchar(255),
        thumbnail varchar(2048),
        welcome_video varchar(2048),
        domain varchar(253),
        stripe_public varchar(255),
        stripe_secret text,
        stripe_webhook_secret text,
        openai_api_key text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX organizations_domain_key ON organizations (domain) WHERE domain IS NOT NULL`,
    );
    await q.query(`CREATE INDEX organizations_name_lower ON organizations (lower(name))`);
    await q.query(`
      CREATE TABLE users (
        user_id serial PRIMARY KEY,
        name varchar(120) NOT NULL,
        last_name varchar(120) NOT NULL DEFAULT '',
        email varchar(254) NOT NULL UNIQUE,
        phone varchar(10),
        company varchar(200),
        uid varchar(64) NOT NULL UNIQUE,
        lang varchar(2) NOT NULL DEFAULT 'en',
        password_hash varchar(200) NOT NULL,
        api_key_hash varchar(64) UNIQUE,
        api_key_last4 varchar(8),
        zappier_webhook_url varchar(2048),
        manual_mode boolean NOT NULL DEFAULT false,
        dark_mode boolean NOT NULL DEFAULT false,
        birthday date,
        instagram varchar(200),
        file varchar(2048),
        signup_reason varchar(200),
        default_organization int REFERENCES organizations(organization_id) ON DELETE SET NULL,
        show_video boolean NOT NULL DEFAULT true,
        value numeric(12,2) NOT NULL DEFAULT 0,
        last_used timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX users_phone ON users (phone)`);
    await q.query(`CREATE INDEX users_created ON users ("createdAt")`);
    await q.query(`
      CREATE TABLE staff (
        staff_id serial PRIMARY KEY,
        user_id int NOT NULL UNIQUE REFERENCES users(user_id) ON DELETE CASCADE,
        role varchar(16) NOT NULL CHECK (role IN ('admin', 'manager')),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE sessions (
        session_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        revoked_at timestamptz,
        revoked_reason varchar(40),
        expires_at timestamptz NOT NULL,
        user_agent varchar(300),
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sessions_user ON sessions (user_id)`);
    await q.query(`
      CREATE TABLE refresh_tokens (
        refresh_token_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash varchar(64) NOT NULL UNIQUE,
        session_id uuid NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
        spent_at timestamptz,
        expires_at timestamptz NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)`);
    await q.query(`
      CREATE TABLE auth_tokens (
        auth_token_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash varchar(64) NOT NULL UNIQUE,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        purpose varchar(20) NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE app_config (
        key varchar(100) PRIMARY KEY,
        value text,
        updated_by int REFERENCES users(user_id) ON DELETE SET NULL,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE files (
        file_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        type varchar(120) NOT NULL,
        size int NOT NULL,
        storage_key varchar(80) NOT NULL UNIQUE,
        public boolean NOT NULL DEFAULT false,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX files_user ON files (user_id)`);
    await q.query(`
      CREATE TABLE user_types (
        user_type_id int PRIMARY KEY,
        name varchar(20) NOT NULL
      )`);
    await q.query(
      `INSERT INTO user_types (user_type_id, name) VALUES (1, 'Admin'), (2, 'Manager'), (3, 'Member')`,
    );
    await q.query(`
      CREATE TABLE user_organizations (
        user_organization_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int NOT NULL REFERENCES organizations(organization_id) ON DELETE CASCADE,
        user_type_id int NOT NULL REFERENCES user_types(user_type_id),
        last_use timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, organization_id)
      )`);
    await q.query(`CREATE INDEX user_organizations_org ON user_organizations (organization_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'user_organizations',
      'user_types',
      'files',
      'app_config',
      'auth_tokens',
      'refresh_tokens',
      'sessions',
      'staff',
      'users',
      'organizations',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
