import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { ByteRange, STORAGE_KEY, StorageNotFound, StorageService } from './storage';

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint: string | null;
  /** Null: the SDK's default credential chain (instance role, AWS_* variables, profile). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /**
   * Resolves the bucket's host for every connection the SDK opens; the outbound policy's guarded lookup refuses
   * private addresses and pins the ones it checked.
   */
  lookup: LookupFunction;
}

/** Connect and whole-request limits, so a silent endpoint cannot hold an upload forever. */
const CONNECTION_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 120_000;

/** An S3-compatible bucket (AWS, MinIO, R2, ...), path-style so custom endpoints work. */
export class S3Storage implements StorageService {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: true,
      credentials: settings.credentials ?? undefined,
      requestHandler: {
        httpAgent: new HttpAgent({ keepAlive: true, lookup: settings.lookup }),
        httpsAgent: new HttpsAgent({ keepAlive: true, lookup: settings.lookup }),
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
      },
    });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    this.check(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: data, ContentType: contentType }),
    );
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    this.check(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(out.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
      return out.Body;
    } catch (err) {
      if (
        err instanceof NoSuchKey ||
        (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)
      ) {
        throw new StorageNotFound(key);
      }
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    this.check(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  destroy(): void {
    this.client.destroy();
  }

  private check(key: string): void {
    if (!STORAGE_KEY.test(key)) throw new StorageNotFound(key);
  }
}
