import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ByteRange, STORAGE_KEY, StorageNotFound, StorageService } from './storage';

/** Files on local disk under DATA_DIR/files (the embedded default). */
export class LocalDiskStorage implements StorageService {
  readonly kind = 'local' as const;

  constructor(private readonly dir: string) {}

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(this.dir, { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, data, { mode: 0o600 });
    await rename(temp, path);
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.path(key);
    try {
      await stat(path);
    } catch {
      throw new StorageNotFound(key);
    }
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
  }

  async remove(key: string): Promise<void> {
    await unlink(this.path(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  private path(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new StorageNotFound(key);
    return join(this.dir, key);
  }
}
