import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Like, Repository } from 'typeorm';
import { SetupStateEntry } from './setup-state.entity';

/** The setup_state table: the only code that reads or writes it. */
@Injectable()
export class SetupRepository {
  constructor(@InjectRepository(SetupStateEntry) private readonly entries: Repository<SetupStateEntry>) {}

  private repo(m?: EntityManager): Repository<SetupStateEntry> {
    return m ? m.getRepository(SetupStateEntry) : this.entries;
  }

  async get(key: string): Promise<string | null> {
    return (await this.entries.findOne({ where: { key } }))?.value ?? null;
  }

  /** Every entry whose key starts with `prefix`, as a map. */
  async withPrefix(prefix: string): Promise<Map<string, string>> {
    const rows = await this.entries.find({ where: { key: Like(`${prefix}%`) } });
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Inserts the key only when absent; true when this call inserted it (the one instance that claims it). */
  async claim(key: string, value: string): Promise<boolean> {
    const result = await this.entries
      .createQueryBuilder()
      .insert()
      .into(SetupStateEntry)
      .values({ key, value })
      .orIgnore()
      .returning(['key'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  async set(key: string, value: string, m?: EntityManager): Promise<void> {
    await this.repo(m).upsert({ key, value }, ['key']);
  }

  async deletePrefix(prefix: string): Promise<void> {
    await this.entries.delete({ key: Like(`${prefix}%`) });
  }
}
