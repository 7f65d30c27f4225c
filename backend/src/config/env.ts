import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type Role = 'api' | 'worker' | 'all';
export type LogLevel = 'error' | 'warn' | 'log' | 'debug' | 'verbose';

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
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number;
  /** How long a request waits for an unreachable database (restart, failover) before answering 503. */
  databaseRetryMs: number;
  /** Where the built frontends live (served from one origin in production). */
  frontendsDir: string;
  s3Endpoint: string | null;
  /** S3 credentials; when unset the AWS SDK's default chain (instance role, AWS_* variables) applies. */
  s3AccessKeyId: string | null;
  s3SecretAccessKey: string | null;
  /** SearXNG base URL for web search, used when the app config key search_url is unset. */
  searchUrl: string | null;
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
}

export class EnvError extends Error {}

const ROLES: Role[] = ['api', 'worker', 'all'];
const LOG_LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

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
    maxUploadBytes: int(source, 'MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    databaseRetryMs: int(source, 'DATABASE_RETRY_MS', 10_000, 0, 120_000),
    frontendsDir: resolve(str(source, 'FRONTENDS_DIR') ?? join(__dirname, '..', '..', '..', 'frontends')),
    s3Endpoint: url(source, 'S3_ENDPOINT', ['http:', 'https:']),
    s3AccessKeyId: str(source, 'S3_ACCESS_KEY_ID'),
    s3SecretAccessKey: str(source, 'S3_SECRET_ACCESS_KEY'),
    searchUrl: url(source, 'SEARCH_URL', ['http:', 'https:']),
    generationReserveWords: int(source, 'GENERATION_RESERVE_WORDS', 4000, 1, 1_000_000),
    generationMaxConcurrentPerUser: int(source, 'GENERATION_MAX_CONCURRENT_PER_USER', 3, 1, 1000),
    generationLeaseMs: int(source, 'GENERATION_LEASE_MS', 15_000, 500, 600_000),
    shutdownDrainMs: int(source, 'SHUTDOWN_DRAIN_MS', 25_000, 0, 600_000),
    aiTimeoutMs: int(source, 'AI_TIMEOUT_MS', 60_000, 500, 600_000),
  };
}

/** Injection token for the AppEnv. */
export const APP_ENV = Symbol('APP_ENV');
