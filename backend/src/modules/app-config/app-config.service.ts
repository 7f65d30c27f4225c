import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { isMasked, maskSecret, SecretBox } from '../../common/crypto/secret-box';
import { badInput } from '../../common/errors/domain-error';
import { OutboundBlockedError } from '../../common/outbound/address-policy';
import { OutboundHttp } from '../../common/outbound/outbound-http';
import { APP_ENV, AppEnv } from '../../config/env';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditService } from '../audit/audit.service';
import { AppConfigRepository } from './app-config.repository';
import { CONFIG_KEYS, CONFIG_KEY_MAP } from './app-config.keys';
import { checkConfigValue, normalizeConfigValue } from './app-config.rules';
import type { AdminConfigEntryDto, ConfigChangeDto, ConfigEntryDto } from './dto/app-config.dto';

/** The public list is read on every page load; a few seconds of staleness on other instances is fine. */
const PUBLIC_CACHE_MS = 5_000;
/** How long saving a URL waits for its host to resolve before accepting it (it is checked again at use). */
const SAVE_CHECK_WAIT_MS = 3_000;

/**
 * The app's key/value settings. Secrets are encrypted at rest with APP_SECRET, left out of the public list,
 * masked for admins, and kept as they are when an admin sends the masked value back.
 */
/** How old the media origins of the CSP may get before a request refreshes them (in the background). */
const MEDIA_REFRESH_MS = 10_000;

@Injectable()
export class AppConfigService implements OnModuleInit {
  private readonly logger = new Logger('AppConfig');
  private readonly box: SecretBox;
  private publicCache: { at: number; config: ConfigEntryDto[] } | null = null;
  private media: { origins: string[]; at: number; loading: boolean } = { origins: [], at: 0, loading: false };
  private readonly changeListeners: (() => Promise<void>)[] = [];

  constructor(
    private readonly repo: AppConfigRepository,
    private readonly transactions: UnitOfWork,
    private readonly outbound: OutboundHttp,
    @Inject(APP_ENV) env: AppEnv,
    /** Records secret edits; optional so the settings load in tools that run without the audit log. */
    @Optional() private readonly audit?: AuditService,
  ) {
    this.box = new SecretBox(env.appSecret);
  }

  /** Inserts the default of every key that is missing; never overwrites (safe on every start, any instance). */
  async onModuleInit(): Promise<void> {
    const inserted = await this.repo.insertMissing(
      CONFIG_KEYS.map((k) => ({
        key: k.key,
        value: k.secret && k.default !== null ? this.box.encrypt(k.default) : k.default,
      })),
    );
    if (inserted) this.logger.log(`Seeded ${inserted} app config keys`);
  }

  /** Runs `listener` after every saved change on this instance (before the save answers). */
  onChange(listener: () => Promise<void>): void {
    this.changeListeners.push(listener);
  }

  /** The decrypted value of one key, or null when unset. */
  async get(key: string): Promise<string | null> {
    const row = await this.repo.find(key);
    return this.plain(key, row?.value ?? null);
  }

  /** Decrypted values of several keys at once (missing ones are null). */
  async getMany<K extends string>(keys: readonly K[]): Promise<Record<K, string | null>> {
    const rows = await this.repo.findMany([...keys]);
    const byKey = new Map(rows.map((r) => [r.key, r.value]));
    return Object.fromEntries(keys.map((k) => [k, this.plain(k, byKey.get(k) ?? null)])) as Record<
      K,
      string | null
    >;
  }

  /** 'true' and '1' are on; anything else (or unset) is off. */
  async getFlag(key: string): Promise<boolean> {
    const value = (await this.get(key))?.trim().toLowerCase();
    return value === 'true' || value === '1';
  }

  /** Every key the browser needs (neither secret nor internal), for anyone (the app shell loads it first). */
  async listPublic(): Promise<ConfigEntryDto[]> {
    if (this.publicCache && Date.now() - this.publicCache.at < PUBLIC_CACHE_MS)
      return this.publicCache.config;
    const stored = await this.storedValues();
    const config = CONFIG_KEYS.filter((k) => !k.secret && !k.internal).map((k) => ({
      key: k.key,
      value: stored.has(k.key) ? (stored.get(k.key) ?? null) : k.default,
    }));
    this.publicCache = { at: Date.now(), config };
    return config;
  }

  /**
   * The https origins of the public URL settings (logo, favicon, landing media...): with our own origin, the
   * only places pages may load images and media from. Read through the public config's short cache.
   */
  /**
   * mediaOrigins() without waiting: the last known answer, refreshed in the background when older than 10 s, so
   * no request (not even liveness during a database outage) waits for it. A settings change here refreshes it.
   */
  mediaOriginsNow(): string[] {
    if (Date.now() - this.media.at > MEDIA_REFRESH_MS) void this.refreshMediaOrigins();
    return this.media.origins;
  }

  /** Reloads the media origins now (errors keep the last answer). */
  async refreshMediaOrigins(): Promise<void> {
    if (this.media.loading) return;
    this.media.loading = true;
    try {
      this.media = { origins: await this.mediaOrigins(), at: Date.now(), loading: false };
    } catch {
      // Keep the last answer; the next request tries again.
      this.media.loading = false;
    }
  }

  async mediaOrigins(): Promise<string[]> {
    const links = new Set(CONFIG_KEYS.filter((k) => k.type === 'url').map((k) => k.key));
    const origins = new Set<string>();
    for (const entry of await this.listPublic()) {
      if (!links.has(entry.key) || !entry.value) continue;
      try {
        const parsed = new URL(entry.value);
        if (parsed.protocol === 'https:') origins.add(parsed.origin);
      } catch {
        // A path on this server (uploads have relative src): covered by 'self'.
      }
    }
    return [...origins];
  }

  /** Every key with its metadata; secrets masked. */
  async listAdmin(): Promise<AdminConfigEntryDto[]> {
    const stored = await this.storedValues();
    return CONFIG_KEYS.map((k) => {
      const value = stored.has(k.key) ? (stored.get(k.key) ?? null) : k.default;
      return {
        key: k.key,
        value: k.secret ? maskSecret(this.plain(k.key, value)) : value,
        secret: k.secret,
        type: k.type,
        group: k.group,
        ...(k.options ? { options: [...k.options] } : {}),
      };
    });
  }

  /** Validates every change first (all or nothing), then writes them in one transaction. */
  async update(changes: ConfigChangeDto[], userId: number): Promise<AdminConfigEntryDto[]> {
    const writes = new Map<string, string | null>();
    for (const change of changes) {
      const def = CONFIG_KEY_MAP.get(change.key);
      if (!def) {
        throw badInput(`Unknown setting "${change.key}".`, 'unknown_config_key', { key: change.key });
      }
      const value = normalizeConfigValue(change.value);
      // The admin screen sends every field back; a masked secret means "not edited".
      if (def.secret && isMasked(value)) continue;
      if (value !== null) {
        const problem = checkConfigValue(def, value);
        if (problem) throw badInput(problem, 'invalid_config_value', { key: def.key });
        if (def.fetched && value !== '') await this.checkReachable(def.key, value);
      } else if (def.type === 'boolean') {
        throw badInput(`${def.key} must be true or false.`, 'invalid_config_value', { key: def.key });
      }
      const stored = value === null || value === '' ? null : value;
      writes.set(def.key, def.secret && stored !== null ? this.box.encrypt(stored) : stored);
    }
    if (writes.size) {
      await this.transactions.run(async (tx) => {
        for (const [key, value] of writes) await this.repo.upsert(key, value, userId, tx);
        const secrets = [...writes.keys()].filter((key) => CONFIG_KEY_MAP.get(key)?.secret);
        if (secrets.length)
          await this.audit?.record('app_config.secrets_changed', { details: { settings: secrets } }, tx);
      });
      this.publicCache = null;
      await this.refreshMediaOrigins();
      await Promise.all(this.changeListeners.map((listener) => listener().catch(() => undefined)));
    }
    return this.listAdmin();
  }

  /**
   * A URL the server will request must not lead to a private address: refused now with a clear 400 rather
   * than failing later. A host that does not resolve yet is accepted (it is checked again at every use).
   */
  private async checkReachable(key: string, value: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      // A slow resolver must not hold the save: past the wait the URL is accepted like an unresolvable one.
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, SAVE_CHECK_WAIT_MS)));
      await Promise.race([this.outbound.checkUrl(value), waited]);
    } catch (err) {
      if (err instanceof OutboundBlockedError) {
        throw badInput(`${key} is not allowed: ${err.message}.`, 'invalid_config_value', { key });
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async storedValues(): Promise<Map<string, string | null>> {
    const rows = await this.repo.all();
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Only secrets are stored encrypted; other values are returned as they are, whatever they look like. */
  private plain(key: string, stored: string | null): string | null {
    if (stored === null || !CONFIG_KEY_MAP.get(key)?.secret) return stored;
    try {
      return this.box.decrypt(stored);
    } catch {
      // Encrypted under another APP_SECRET: unreadable, so treat as unset rather than failing every caller.
      this.logger.warn('An app config secret could not be decrypted (was APP_SECRET changed?)');
      return null;
    }
  }
}
