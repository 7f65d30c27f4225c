import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { whereOwned, type OwnerScope } from '../../common/database/owner-scope';
import { SuperFetchMessage } from './super-fetch-message.entity';

export type NewSuperFetchMessage = Pick<
  SuperFetchMessage,
  'user_id' | 'organization_id' | 'avatar_id' | 'assistant_id' | 'role' | 'content' | 'request_id' | 'liked'
>;

/** The super_fetch_messages table: the only code that reads or writes it. */
@Injectable()
export class SuperFetchRepository {
  constructor(
    @InjectRepository(SuperFetchMessage) private readonly messages: Repository<SuperFetchMessage>,
  ) {}

  /** The scope's latest `limit` entries with one assistant, oldest first. */
  async latest(scope: OwnerScope, assistantId: string, limit: number): Promise<SuperFetchMessage[]> {
    const rows = await whereOwned(this.messages.createQueryBuilder('m'), scope, 'm')
      .andWhere('m.assistant_id = :assistantId', { assistantId })
      .orderBy('m.createdAt', 'DESC')
      .addOrderBy('m.message_id', 'DESC')
      .limit(limit)
      .getMany();
    return rows.reverse();
  }

  insert(values: NewSuperFetchMessage, m?: EntityManager): Promise<SuperFetchMessage> {
    const repo = m ? m.getRepository(SuperFetchMessage) : this.messages;
    return repo.save(repo.create(values));
  }

  /** Deletes the scope's whole history with one assistant; answers how many entries went. */
  async clear(scope: OwnerScope, assistantId: string): Promise<number> {
    const result = await whereOwned(this.messages.createQueryBuilder().delete(), scope)
      .andWhere('assistant_id = :assistantId', { assistantId })
      .execute();
    return result.affected ?? 0;
  }
}
