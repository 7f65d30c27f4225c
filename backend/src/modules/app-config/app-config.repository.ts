import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AppConfigEntry } from './app-config.entity';

/** The app_config table: the only code that reads or writes it. */
@Injectable()
export class AppConfigRepository {
  constructor(@InjectRepository(AppConfigEntry) private readonly entries: Repository<AppConfigEntry>) {}

  /** Inserts the entries whose key is missing, never overwriting one; answers how many were inserted. */
  async insertMissing(entries: { key: string; value: string | null }[]): Promise<number> {
    if (entries.length === 0) return 0;
    const result = await this.entries
      .createQueryBuilder()
      .insert()
      .into(AppConfigEntry)
      .values(entries)
      .orIgnore()
      .returning(['key'])
      .execute();
    return (result.raw as unknown[]).length;
  }

  find(key: string): Promise<AppConfigEntry | null> {
    return this.entries.findOne({ where: { key } });
  }

  findMany(keys: string[]): Promise<AppConfigEntry[]> {
    return this.entries.find({ where: { key: In(keys) } });
  }

  all(): Promise<AppConfigEntry[]> {
    return this.entries.find();
  }

  /** Sets the value of a key (inserting it if missing), recording who changed it. */
  async upsert(key: string, value: string | null, updated_by: number, tx: EntityManager): Promise<void> {
    await tx
      .getRepository(AppConfigEntry)
      .upsert({ key, value, updated_by, updatedAt: new Date() }, { conflictPaths: ['key'] });
  }
}
