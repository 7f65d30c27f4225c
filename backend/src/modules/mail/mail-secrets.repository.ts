import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { MailSecret } from './mail-secret.entity';

/** The mail_secrets table: the only code that reads or writes it. */
@Injectable()
export class MailSecretsRepository {
  constructor(@InjectRepository(MailSecret) private readonly secrets: Repository<MailSecret>) {}

  async deleteExpired(): Promise<void> {
    await this.secrets.delete({ expires_at: LessThan(new Date()) });
  }

  async insert(secret: MailSecret): Promise<void> {
    await this.secrets.insert(secret);
  }

  /** The stored value while it has not expired. */
  async findValid(id: string): Promise<string | null> {
    return (await this.secrets.findOneBy({ id, expires_at: MoreThan(new Date()) }))?.value ?? null;
  }

  async delete(id: string): Promise<void> {
    await this.secrets.delete({ id });
  }
}
