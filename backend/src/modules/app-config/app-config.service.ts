import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box';
import { APP_ENV, AppEnv } from '../../config/env';
import { AppConfigEntry } from './app-config.entity';

@Injectable()
export class AppConfigService {
  private readonly box: SecretBox;

  constructor(
    @InjectRepository(AppConfigEntry) private readonly repo: Repository<AppConfigEntry>,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.box = new SecretBox(env.appSecret);
  }

  /** The decrypted value of one key, or null when unset. */
  async get(key: string): Promise<string | null> {
    const row = await this.repo.findOne({ where: { key } });
    if (!row || row.value === null) return null;
    return this.box.decrypt(row.value);
  }

  /** 'true' and '1' are on; anything else (or unset) is off. */
  async getFlag(key: string): Promise<boolean> {
    const value = (await this.get(key))?.trim().toLowerCase();
    return value === 'true' || value === '1';
  }
}
