import type { Readable } from 'node:stream';

/** Inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Where file bytes live. Keys are server-made (random hex + extension), never user input. */
export interface StorageService {
  readonly kind: 'local' | 's3';
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Throws StorageNotFound when the key does not exist. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Missing keys are fine (deleting twice is not an error). */
  remove(key: string): Promise<void>;
}

export class StorageNotFound extends Error {}

/** What storage keys look like; anything else is refused before touching a disk or a bucket. */
export const STORAGE_KEY = /^[a-f0-9]{48}\.[a-z0-9]{2,5}$/;
