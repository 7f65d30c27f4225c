import 'reflect-metadata';
import { hash } from '@node-rs/argon2';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../src/bootstrap';
import { signAccessToken } from '../src/common/auth/access-token';
import type { StaffRole } from '../src/common/auth/permissions';
import { AppEnv, loadEnv } from '../src/config/env';
import { extensionSchema } from '../src/database/migrations/extensions';
import { WordsService } from '../src/modules/words/words.service';

export const TEST_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestUser {
  user_id: number;
  email: string;
  password: string;
  token: string;
  session_id: string;
  /** `Authorization` header value. */
  auth: string;
}

export interface TestApp {
  app: NestExpressApplication;
  env: AppEnv;
  db: DataSource;
  http: () => ReturnType<typeof request>;
  /** Inserts a user directly (fast) and opens a session for them. */
  createUser(options?: {
    email?: string;
    password?: string;
    staff?: StaffRole;
    name?: string;
    last_name?: string;
    /** Leave the email unverified (by default the address counts as verified). */
    unverified?: boolean;
    /** Words granted as a gift (by default none: the user has no access to generating features). */
    words?: number;
  }): Promise<TestUser>;
  /** Makes the user a member of a new or given organization with user_type_id 1..3. */
  createOrganization(name?: string): Promise<number>;
  addMember(organizationId: number, userId: number, userTypeId: 1 | 2 | 3): Promise<void>;
  close(): Promise<void>;
}

/**
 * Test files share the database: the extensions the migrations use (pg_trgm, and pgvector where the server offers
 * it) are installed once, in public, in one transaction under a lock, so no test schema's migration installs one
 * into its own schema (dropped with it) or races another.
 */
export async function installSharedExtensions(admin: Client): Promise<void> {
  const sql = { query: async (text: string, params?: unknown[]) => (await admin.query(text, params)).rows };
  await admin.query('BEGIN');
  try {
    await admin.query(`SELECT pg_advisory_xact_lock(7263001)`);
    for (const name of ['pg_trgm', 'vector'] as const) await extensionSchema(sql, name);
    await admin.query('COMMIT');
  } catch (err) {
    await admin.query('ROLLBACK');
    throw err;
  }
}

/**
 * Boots the real app against the real PostgreSQL and Redis, in a fresh schema and Redis prefix of its own,
 * so test files run in parallel without seeing each other.
 */
export async function startTestApp(extraEnv: Record<string, string> = {}): Promise<TestApp> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await installSharedExtensions(admin);
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }

  const env = loadEnv({
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `test-${schema}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'avatar-studio-test-')),
    APP_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    // The fake outside services listen on loopback; a test that checks the refusal passes OUTBOUND_ALLOW: ''.
    OUTBOUND_ALLOW: '127.0.0.1,::1,localhost',
    AUTH_ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000',
    UPLOAD_RATE_LIMIT_PER_MINUTE: '100000',
    EXPORT_RATE_LIMIT_PER_MINUTE: '100000',
    HEAVY_TASKS_PER_USER: '1000',
    // Tests start from an empty library; the first-run tests turn the starter content on.
    STARTER_CONTENT: 'false',
    ...extraEnv,
  });
  const app = await createApp(env, { logger: false });
  await app.init();
  const db = app.get(DataSource);
  const server = app.getHttpServer();
  let counter = 0;

  const harness: TestApp = {
    app,
    env,
    db,
    http: () => request(server),
    async createUser(options = {}) {
      counter++;
      const email = (
        options.email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.com`
      ).toLowerCase();
      const password = options.password ?? 'secret123';
      const [{ user_id }] = await db.query(
        `INSERT INTO users (name, last_name, email, uid, password_hash, email_verified_at)
         VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::boolean THEN NULL ELSE now() END) RETURNING user_id`,
        [
          options.name ?? `User${counter}`,
          options.last_name ?? 'Test',
          email,
          randomUUID(),
          await hash(password),
          options.unverified ?? false,
        ],
      );
      if (options.words) await app.get(WordsService).grant(user_id, { words: options.words, source: 'gift' });
      if (options.staff)
        await db.query(`INSERT INTO staff (user_id, role) VALUES ($1, $2)`, [user_id, options.staff]);
      const [{ session_id }] = await db.query(
        `INSERT INTO sessions (user_id, expires_at) VALUES ($1, now() + interval '30 days') RETURNING session_id`,
        [user_id],
      );
      const token = signAccessToken(env.appSecret, { sub: user_id, sid: session_id });
      return { user_id, email, password, token, session_id, auth: `Bearer ${token}` };
    },
    async createOrganization(name = `Org ${++counter}`) {
      const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
      const [{ organization_id }] = await db.query(
        `INSERT INTO organizations (name, slug) VALUES ($1, $2) RETURNING organization_id`,
        [name, slug],
      );
      return organization_id;
    },
    async addMember(organizationId, userId, userTypeId) {
      await db.query(
        `INSERT INTO user_organizations (user_id, organization_id, user_type_id) VALUES ($1, $2, $3)`,
        [userId, organizationId, userTypeId],
      );
    },
    async close() {
      await app.close();
      const cleanup = new Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
  return harness;
}
