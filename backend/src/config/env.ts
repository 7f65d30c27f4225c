import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllowEntry } from '../common/outbound/address-policy';

export type Role = 'api' | 'worker' | 'all';
export type LogLevel = 'error' | 'warn' | 'log' | 'debug' | 'verbose';
export type DatabasePoolerMode = 'session' | 'transaction';

/** The whole typed configuration. Only `loadEnv` reads process.env; everything else receives an `AppEnv`. */
export interface AppEnv {
  port: number;
  databaseUrl: string | null;
  /** PostgreSQL schema to use (tests give each file its own); null means the server default. */
  databaseSchema: string | null;
  redisUrl: string | null;
  /** Prefix for Redis keys and queue names, so several test runs or apps can share one Redis. */
  redisPrefix: string;
  dataDir: string;
  appSecret: string;
  publicUrl: string;
  corsOrigins: string[];
  openaiApiKey: string | null;
  openaiBaseUrl: string | null;
  xaiApiKey: string | null;
  xaiBaseUrl: string | null;
  adminEmail: string | null;
  adminPassword: string | null;
  role: Role;
  logLevel: LogLevel;
  /** Requests per minute per client address on the auth routes. */
  authRateLimitPerMinute: number;
  /** Requests per minute per account (the email given) on the sign-in, recovery and sign-up routes. */
  authAccountRateLimitPerMinute: number;
  /** Express `trust proxy`: false (default), a number of proxy hops, or addresses/subnets of trusted proxies. */
  trustProxy: TrustProxy;
  /** A session ends this many days after its sign-in, however often it is refreshed. */
  sessionMaxDays: number;
  /** Staff admins must use two-factor codes; without one enrolled they can sign in only to enrol. */
  staff2faRequired: boolean;
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number;
  /** How long a request waits for an unreachable database (restart, failover) before answering 503. */
  databaseRetryMs: number;
  /** PostgreSQL connections this instance opens at most and keeps open (the embedded database takes one). */
  databasePoolSize: number;
  /**
   * How a pooler between the instances and PostgreSQL hands out its server connections: `session` (no pooler, or
   * one server connection per client connection) or `transaction` (PgBouncer 1.21+ with max_prepared_statements,
   * which follows only the protocol's prepared statements, so the SQL command PREPARE is not used).
   */
  databasePoolerMode: DatabasePoolerMode;
  /** Where the built frontends live (served from one origin in production). */
  frontendsDir: string;
  s3Endpoint: string | null;
  /** S3 credentials; when unset the AWS SDK's default chain (instance role, AWS_* variables) applies. */
  s3AccessKeyId: string | null;
  s3SecretAccessKey: string | null;
  /** SearXNG base URL for web search, used when the app config key search_url is unset. */
  searchUrl: string | null;
  /**
   * Hosts, addresses and CIDR ranges outbound requests to configured URLs may reach although they are private,
   * loopback or link-local (everything else non-public is refused).
   */
  outboundAllow: string[];
  /** Threads of the worker pool that parses documents and renders exports (CPU-heavy work off the main thread). */
  workerPoolSize: number;
  /** Tasks that may wait for a free pool thread; past this, new ones are refused with 503. */
  workerQueueLimit: number;
  /** Per user and minute: uploads (files and conversation attachments). */
  uploadRateLimitPerMinute: number;
  /** Per user and minute: PDF and Word exports. */
  exportRateLimitPerMinute: number;
  /** Per user: uploads, document reads and exports running at the same time. */
  heavyTasksPerUser: number;
  /** Words a generation reserves before it starts (capped at the words available); its answer stops there. */
  generationReserveWords: number;
  /** Generations one user may have running at once, over every instance. */
  generationMaxConcurrentPerUser: number;
  /** How long a generation's lease on its answer lasts; renewed five times per lease while it streams. */
  generationLeaseMs: number;
  /** On SIGTERM, how long running generations may finish before the rest are ended as interrupted. */
  shutdownDrainMs: number;
  /** Longest wait for the AI provider's first token, and between two tokens, before it counts as failed. */
  aiTimeoutMs: number;
  /** Stripe API base URL (tests point the SDK at a local fake); null = Stripe itself. */
  stripeApiBase: string | null;
  /** PayPal REST base URL; the default is PayPal's live API (payments run in production). */
  paypalApiBase: string;
  /** How old a Stripe webhook signature may be, in seconds, before the event is refused as a replay. */
  stripeWebhookToleranceSeconds: number;
  /** Load the starter templates and workflows on the first start with an empty library (STARTER_CONTENT). */
  starterContent: boolean;
}

export class EnvError extends Error {}

/** What express's `trust proxy` receives: off, a hop count, or a list of trusted proxy addresses. */
export type TrustProxy = false | number | string[];

const ROLES: Role[] = ['api', 'worker', 'all'];
const LOG_LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];
const DATABASE_POOLER_MODES: DatabasePoolerMode[] = ['session', 'transaction'];

function str(source: NodeJS.ProcessEnv, key: string): string | null {
  const value = source[key];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function int(source: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const raw = str(source, key);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new EnvError(`${key} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(source: NodeJS.ProcessEnv, key: string, allowed: T[], fallback: T): T {
  const raw = str(source, key);
  if (raw === null) return fallback;
  if (!allowed.includes(raw as T))
    throw new EnvError(`${key} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function url(source: NodeJS.ProcessEnv, key: string, protocols: string[]): string | null {
  const raw = str(source, key);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new EnvError(`${key} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new EnvError(`${key} must start with ${protocols.map((p) => p + '//').join(' or ')}`);
  }
  return raw;
}

function allowList(source: NodeJS.ProcessEnv, key: string): string[] {
  const entries = (str(source, key) ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!parseAllowEntry(entry)) {
      throw new EnvError(
        `${key}: "${entry}" is not a host name, an IP address or a CIDR range like 10.0.0.0/8`,
      );
    }
  }
  return entries;
}

function bool(source: NodeJS.ProcessEnv, key: string, fallback: boolean): boolean {
  const raw = str(source, key)?.toLowerCase();
  if (raw === undefined || raw === null) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new EnvError(`${key} must be true or false, got "${raw}"`);
}

/** Named ranges express understands besides addresses and CIDR subnets. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;

/**
 * TRUST_PROXY: unset or false = the client address is the socket's; a whole number = that many proxies in front;
 * otherwise a comma-separated list of proxy addresses, subnets (10.0.0.0/8) or loopback, linklocal, uniquelocal.
 */
function trustProxy(source: NodeJS.ProcessEnv): TrustProxy {
  const raw = str(source, 'TRUST_PROXY');
  if (raw === null || ['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const isAddress = IPV4.test(address) || (address.includes(':') && /^[0-9a-f:.]+$/i.test(address));
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= 128);
    if (!(PROXY_NAMES.includes(entry) || (isAddress && bitsOk && extra === undefined))) {
      throw new EnvError(
        `TRUST_PROXY must be false, a number of proxies, or addresses/subnets (or ${PROXY_NAMES.join(', ')}), got "${entry}"`,
      );
    }
  }
  return entries;
}

/** APP_SECRET when set; otherwise one generated on first start and kept in DATA_DIR. */
function appSecret(source: NodeJS.ProcessEnv, dataDir: string): string {
  const given = str(source, 'APP_SECRET');
  if (given !== null) {
    if (given.length < 32) throw new EnvError('APP_SECRET must be at least 32 characters');
    return given;
  }
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Where the embedded database, local files and the generated secret live; read alone by the backup command. */
export function loadStorageEnv(source: NodeJS.ProcessEnv = process.env): {
  dataDir: string;
  databaseUrl: string | null;
} {
  return {
    dataDir: resolve(str(source, 'DATA_DIR') ?? './data'),
    databaseUrl: url(source, 'DATABASE_URL', ['postgres:', 'postgresql:']),
  };
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): AppEnv {
  const { dataDir } = loadStorageEnv(source);
  const port = int(source, 'PORT', 3000, 0, 65535);
  const publicUrl = url(source, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const schema = str(source, 'DATABASE_SCHEMA');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new EnvError('DATABASE_SCHEMA must be a lowercase identifier');
  }
  return {
    port,
    databaseUrl: url(source, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseSchema: schema,
    redisUrl: url(source, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(source, 'REDIS_PREFIX') ?? 'avatar-studio',
    dataDir,
    appSecret: appSecret(source, dataDir),
    publicUrl,
    corsOrigins: (str(source, 'CORS_ORIGINS') ?? publicUrl)
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    openaiApiKey: str(source, 'OPENAI_API_KEY'),
    openaiBaseUrl: url(source, 'OPENAI_BASE_URL', ['http:', 'https:']),
    xaiApiKey: str(source, 'XAI_API_KEY'),
    xaiBaseUrl: url(source, 'XAI_BASE_URL', ['http:', 'https:']),
    adminEmail: str(source, 'ADMIN_EMAIL')?.toLowerCase() ?? null,
    adminPassword: str(source, 'ADMIN_PASSWORD'),
    role: oneOf(source, 'ROLE', ROLES, 'all'),
    logLevel: oneOf(source, 'LOG_LEVEL', LOG_LEVELS, 'log'),
    authRateLimitPerMinute: int(source, 'AUTH_RATE_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    authAccountRateLimitPerMinute: int(source, 'AUTH_ACCOUNT_RATE_LIMIT_PER_MINUTE', 10, 1, 1_000_000),
    trustProxy: trustProxy(source),
    sessionMaxDays: int(source, 'SESSION_MAX_DAYS', 90, 1, 3650),
    staff2faRequired: bool(source, 'STAFF_2FA_REQUIRED', false),
    maxUploadBytes: int(source, 'MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    databaseRetryMs: int(source, 'DATABASE_RETRY_MS', 10_000, 0, 120_000),
    databasePoolSize: int(source, 'DATABASE_POOL_SIZE', 10, 1, 100),
    databasePoolerMode: oneOf(source, 'DATABASE_POOLER_MODE', DATABASE_POOLER_MODES, 'session'),
    frontendsDir: resolve(str(source, 'FRONTENDS_DIR') ?? join(__dirname, '..', '..', '..', 'frontends')),
    s3Endpoint: url(source, 'S3_ENDPOINT', ['http:', 'https:']),
    s3AccessKeyId: str(source, 'S3_ACCESS_KEY_ID'),
    s3SecretAccessKey: str(source, 'S3_SECRET_ACCESS_KEY'),
    searchUrl: url(source, 'SEARCH_URL', ['http:', 'https:']),
    outboundAllow: allowList(source, 'OUTBOUND_ALLOW'),
    // One core stays for the event loop; at least two threads, so one long document does not hold up exports.
    workerPoolSize: int(
      source,
      'WORKER_POOL_SIZE',
      Math.min(4, Math.max(2, availableParallelism() - 1)),
      1,
      64,
    ),
    workerQueueLimit: int(source, 'WORKER_QUEUE_LIMIT', 64, 0, 10_000),
    uploadRateLimitPerMinute: int(source, 'UPLOAD_RATE_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    exportRateLimitPerMinute: int(source, 'EXPORT_RATE_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    heavyTasksPerUser: int(source, 'HEAVY_TASKS_PER_USER', 2, 1, 1000),
    generationReserveWords: int(source, 'GENERATION_RESERVE_WORDS', 4000, 1, 1_000_000),
    generationMaxConcurrentPerUser: int(source, 'GENERATION_MAX_CONCURRENT_PER_USER', 3, 1, 1000),
    generationLeaseMs: int(source, 'GENERATION_LEASE_MS', 15_000, 500, 600_000),
    shutdownDrainMs: int(source, 'SHUTDOWN_DRAIN_MS', 25_000, 0, 600_000),
    aiTimeoutMs: int(source, 'AI_TIMEOUT_MS', 60_000, 500, 600_000),
    stripeApiBase: url(source, 'STRIPE_API_BASE', ['http:', 'https:']),
    paypalApiBase: url(source, 'PAYPAL_API_BASE', ['http:', 'https:']) ?? 'https://api-m.paypal.com',
    stripeWebhookToleranceSeconds: int(source, 'STRIPE_WEBHOOK_TOLERANCE_SECONDS', 300, 1, 3600),
    starterContent: bool(source, 'STARTER_CONTENT', true),
  };
}

/** Injection token for the AppEnv. */
export const APP_ENV = Symbol('APP_ENV');
