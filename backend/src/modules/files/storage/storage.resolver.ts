import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '../../../common/errors/domain-error';
import { OutboundPolicy } from '../../../common/outbound/address-policy';
import { checkHost, guardedLookup } from '../../../common/outbound/guarded-lookup';
import { describeOutboundFailure } from '../../../common/outbound/outbound-http';
import { APP_ENV, AppEnv } from '../../../config/env';
import { AppConfigService } from '../../app-config/app-config.service';
import { LocalDiskStorage } from './local-storage';
import { S3Storage } from './s3-storage';
import { ByteRange, StorageNotFound, StorageService } from './storage';

/**
 * Picks the storage for each operation: the S3-compatible bucket when app config `bucket` and `region` are
 * set (admins may set them at any time), else local disk under DATA_DIR/files.
 */
@Injectable()
export class StorageResolver implements OnApplicationShutdown {
  private readonly logger = new Logger('Storage');
  readonly local: LocalDiskStorage;
  private s3: { signature: string; storage: S3Storage } | null = null;
  /** Same allow-list as every other outbound request (OUTBOUND_ALLOW). */
  private readonly policy: OutboundPolicy;

  constructor(
    @Inject(APP_ENV) private readonly env: AppEnv,
    private readonly config: AppConfigService,
  ) {
    this.local = new LocalDiskStorage(join(env.dataDir, 'files'));
    this.policy = new OutboundPolicy(env.outboundAllow);
  }

  async current(): Promise<StorageService> {
    const { bucket, region, S3_ENDPOINT } = await this.config.getMany(['bucket', 'region', 'S3_ENDPOINT']);
    if (!bucket || !region) return this.local;
    const endpoint = S3_ENDPOINT || this.env.s3Endpoint;
    const signature = JSON.stringify([bucket, region, endpoint]);
    if (this.s3?.signature !== signature) {
      if (endpoint) await this.checkEndpoint(endpoint);
      this.s3?.storage.destroy();
      const credentials =
        this.env.s3AccessKeyId && this.env.s3SecretAccessKey
          ? { accessKeyId: this.env.s3AccessKeyId, secretAccessKey: this.env.s3SecretAccessKey }
          : null;
      this.s3 = {
        signature,
        storage: new S3Storage({
          bucket,
          region,
          endpoint,
          credentials,
          lookup: guardedLookup(this.policy),
        }),
      };
    }
    return this.s3.storage;
  }

  /**
   * The configured endpoint's host must resolve to addresses the outbound policy allows (a literal address is
   * never looked up by the socket, so this check is the only one for it); hosts are checked again per connection.
   */
  private async checkEndpoint(endpoint: string): Promise<void> {
    try {
      await checkHost(this.policy, new URL(endpoint).hostname);
    } catch (err) {
      this.logger.warn(`S3 endpoint refused: ${describeOutboundFailure(err)}`);
      throw new DomainError(
        502,
        'error',
        'File storage is not available: an admin must check the S3 endpoint setting.',
      );
    }
  }

  /**
   * Reads from the current storage, falling back to local disk: files uploaded before a bucket was
   * configured stay readable.
   */
  async read(key: string, range?: ByteRange): Promise<Readable> {
    const storage = await this.current();
    try {
      return await storage.read(key, range);
    } catch (err) {
      if (storage === this.local || !(err instanceof StorageNotFound)) throw err;
      return this.local.read(key, range);
    }
  }

  /** Removes from the current storage and from local disk; failures are logged, never surfaced. */
  async remove(key: string): Promise<void> {
    const storage = await this.current();
    const targets = storage === this.local ? [storage] : [storage, this.local];
    for (const target of targets) {
      await target
        .remove(key)
        .catch((err: Error) => this.logger.warn(`Could not remove ${key}: ${err.message}`));
    }
  }

  onApplicationShutdown(): void {
    this.s3?.storage.destroy();
  }
}
