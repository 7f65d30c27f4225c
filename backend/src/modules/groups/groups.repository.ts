import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { Group, GroupUser } from './group.entity';

export interface GroupRow extends Group {
  users: number;
}

/** The groups and group_users tables: the only code that touches them. */
@Injectable()
export class GroupsRepository {
  constructor(
    @InjectRepository(Group) private readonly groups: Repository<Group>,
    @InjectRepository(GroupUser) private readonly groupUsers: Repository<GroupUser>,
  ) {}

  private repo(m?: EntityManager): Repository<Group> {
    return m ? m.getRepository(Group) : this.groups;
  }

  private members(m?: EntityManager): Repository<GroupUser> {
    return m ? m.getRepository(GroupUser) : this.groupUsers;
  }

  /** The organization's groups by name, with how many users each holds; `name` is a LIKE pattern. */
  async page(
    organizationId: number,
    name: string | null,
    page: Page,
  ): Promise<{ rows: GroupRow[]; total: number }> {
    const qb = this.groups.createQueryBuilder('g').where('g.organization_id = :org', { org: organizationId });
    if (name) qb.andWhere('g.name ILIKE :name', { name });
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .select(['g.group_id', 'g.organization_id', 'g.name', 'g.createdAt', 'g.updatedAt'])
        .addSelect('(SELECT count(*)::int FROM group_users gu WHERE gu.group_id = g.group_id)', 'users')
        .orderBy('lower(g.name)', 'ASC')
        .addOrderBy('g.group_id', 'ASC')
        .offset(page.skip)
        .limit(page.limit)
        .getRawAndEntities(),
      qb.getCount(),
    ]);
    return {
      rows: rows.entities.map((g, i) => ({ ...g, users: Number((rows.raw[i] as { users: number }).users) })),
      total,
    };
  }

  findById(group_id: number, m?: EntityManager): Promise<Group | null> {
    return this.repo(m).findOneBy({ group_id });
  }

  /** Locks the group's row until `m`'s transaction ends, so member counts are checked one change at a time. */
  findByIdForUpdate(group_id: number, m: EntityManager): Promise<Group | null> {
    return m
      .getRepository(Group)
      .createQueryBuilder('g')
      .setLock('pessimistic_write')
      .where('g.group_id = :group_id', { group_id })
      .getOne();
  }

  findByIds(ids: number[]): Promise<Group[]> {
    return ids.length ? this.groups.findBy({ group_id: In([...new Set(ids)]) }) : Promise.resolve([]);
  }

  insert(values: Pick<Group, 'organization_id' | 'name'>): Promise<Group> {
    return this.groups.save(this.groups.create(values));
  }

  async rename(group_id: number, name: string): Promise<void> {
    await this.groups.update({ group_id }, { name });
  }

  async delete(group_id: number): Promise<void> {
    await this.groups.delete({ group_id });
  }

  /** The group's user ids, first added first (at most `limit`). */
  async userIds(group_id: number, limit: number): Promise<number[]> {
    const rows = await this.groupUsers.find({
      where: { group_id },
      order: { createdAt: 'ASC', user_id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => r.user_id);
  }

  countUsers(group_id: number, m?: EntityManager): Promise<number> {
    return this.members(m).countBy({ group_id });
  }

  hasUser(group_id: number, user_id: number, m?: EntityManager): Promise<boolean> {
    return this.members(m).existsBy({ group_id, user_id });
  }

  async addUser(group_id: number, user_id: number, m: EntityManager): Promise<void> {
    await this.members(m).createQueryBuilder().insert().values({ group_id, user_id }).orIgnore().execute();
  }

  /** False when the user was not in the group. */
  async removeUser(group_id: number, user_id: number): Promise<boolean> {
    const result = await this.groupUsers.delete({ group_id, user_id });
    return (result.affected ?? 0) > 0;
  }

  /** Ids of the organization's groups the user is in. */
  async groupIdsOf(user_id: number, organization_id: number): Promise<number[]> {
    const rows = await this.groupUsers
      .createQueryBuilder('gu')
      .innerJoin(Group, 'g', 'g.group_id = gu.group_id')
      .select('gu.group_id', 'group_id')
      .where('gu.user_id = :user_id AND g.organization_id = :organization_id', { user_id, organization_id })
      .getRawMany<{ group_id: number }>();
    return rows.map((r) => r.group_id);
  }
}
