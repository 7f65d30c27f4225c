import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { StoredFile } from './file.entity';

export type NewStoredFile = Pick<StoredFile, 'user_id' | 'name' | 'type' | 'size' | 'storage_key' | 'public'>;

/** The files table: the only code that reads or writes it. */
@Injectable()
export class FilesRepository {
  constructor(@InjectRepository(StoredFile) private readonly files: Repository<StoredFile>) {}

  insert(file: NewStoredFile): Promise<StoredFile> {
    return this.files.save(this.files.create(file));
  }

  save(file: StoredFile): Promise<StoredFile> {
    return this.files.save(file);
  }

  /** The storage keys of every file of a user, read in the caller's transaction (deleting the account). */
  async storageKeysOf(userId: number, tx: EntityManager): Promise<string[]> {
    const rows = await tx
      .getRepository(StoredFile)
      .find({ select: { storage_key: true }, where: { user_id: userId } });
    return rows.map((r) => r.storage_key);
  }

  /** A user's files, newest first, optionally only those whose name contains `pattern` (a LIKE pattern). */
  async page(
    userId: number,
    pattern: string | null,
    page: Page,
  ): Promise<{ rows: StoredFile[]; total: number }> {
    const qb = this.files
      .createQueryBuilder('f')
      .where('f.user_id = :userId', { userId })
      .orderBy('f.createdAt', 'DESC')
      .addOrderBy('f.file_id', 'DESC')
      .skip(page.skip)
      .take(page.limit);
    if (pattern) qb.andWhere(`f.name ILIKE :q ESCAPE '\\'`, { q: pattern });
    const [rows, total] = await qb.getManyAndCount();
    return { rows, total };
  }

  findOwned(userId: number, fileId: number): Promise<StoredFile | null> {
    return this.files.findOne({ where: { file_id: fileId, user_id: userId } });
  }

  findById(fileId: number): Promise<StoredFile | null> {
    return this.files.findOne({ where: { file_id: fileId } });
  }

  findByIds(fileIds: number[]): Promise<StoredFile[]> {
    return fileIds.length ? this.files.find({ where: { file_id: In(fileIds) } }) : Promise.resolve([]);
  }

  findByStorageKey(storageKey: string): Promise<StoredFile | null> {
    return this.files.findOne({ where: { storage_key: storageKey } });
  }

  async delete(fileId: number): Promise<void> {
    await this.files.delete({ file_id: fileId });
  }
}
