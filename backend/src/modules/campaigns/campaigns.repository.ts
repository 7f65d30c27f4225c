import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import type { CampaignResourceType, CampaignSort } from '@avatar-studio/contracts';
import type { Page } from '../../common/http/pagination';
import { Campaign, CampaignGroup, CampaignResource, CampaignUser } from './campaign.entity';

/** Who looks at an organization's campaigns, and what lets them see one. */
export interface CampaignViewer {
  user_id: number;
  /** Admins (and staff) see every campaign. */
  all: boolean;
  /** Managers also see the campaigns they own. */
  owned: boolean;
  /** The viewer's groups in the organization: a campaign given to one of them is theirs to see. */
  groupIds: number[];
}

export type CampaignFields = Pick<
  Campaign,
  'organization_id' | 'user_id' | 'name' | 'description' | 'thumbnail'
>;

const ORDER: Record<CampaignSort, [string, 'ASC' | 'DESC']> = {
  createdAt_desc: ['c.createdAt', 'DESC'],
  updatedAt_desc: ['c.updatedAt', 'DESC'],
  name_asc: ['lower(c.name)', 'ASC'],
  name_desc: ['lower(c.name)', 'DESC'],
};

/** The campaigns, campaign_users, campaign_groups and campaign_resources tables: the only code that touches them. */
@Injectable()
export class CampaignsRepository {
  constructor(
    @InjectRepository(Campaign) private readonly campaigns: Repository<Campaign>,
    @InjectRepository(CampaignUser) private readonly users: Repository<CampaignUser>,
    @InjectRepository(CampaignGroup) private readonly groups: Repository<CampaignGroup>,
    @InjectRepository(CampaignResource) private readonly resources: Repository<CampaignResource>,
  ) {}

  /** Restricts `qb` (alias `c`) to the campaigns the viewer may see. */
  private visibleTo(qb: SelectQueryBuilder<Campaign>, viewer: CampaignViewer): SelectQueryBuilder<Campaign> {
    if (viewer.all) return qb;
    return qb.andWhere(
      new Brackets((b) => {
        if (viewer.owned) b.orWhere('c.user_id = :viewer');
        b.orWhere(
          'EXISTS (SELECT 1 FROM campaign_users cu WHERE cu.campaign_id = c.campaign_id AND cu.user_id = :viewer)',
        );
        if (viewer.groupIds.length)
          b.orWhere(
            'EXISTS (SELECT 1 FROM campaign_groups cg WHERE cg.campaign_id = c.campaign_id AND cg.group_id IN (:...viewerGroups))',
          );
      }),
      { viewer: viewer.user_id, viewerGroups: viewer.groupIds },
    );
  }

  async page(
    organizationId: number,
    viewer: CampaignViewer,
    name: string | null,
    sort: CampaignSort,
    page: Page,
  ): Promise<{ rows: Campaign[]; total: number }> {
    const qb = this.visibleTo(
      this.campaigns.createQueryBuilder('c').where('c.organization_id = :org', { org: organizationId }),
      viewer,
    );
    if (name) qb.andWhere('c.name ILIKE :name', { name });
    const [column, direction] = ORDER[sort];
    const [rows, total] = await qb
      .orderBy(column, direction)
      .addOrderBy('c.campaign_id', direction)
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  /** The campaign when the viewer may see it. */
  findVisible(campaign_id: number, viewer: CampaignViewer): Promise<Campaign | null> {
    return this.visibleTo(
      this.campaigns.createQueryBuilder('c').where('c.campaign_id = :campaign_id', { campaign_id }),
      viewer,
    ).getOne();
  }

  findById(campaign_id: number, m?: EntityManager): Promise<Campaign | null> {
    return (m ? m.getRepository(Campaign) : this.campaigns).findOneBy({ campaign_id });
  }

  /** Locks the campaign's row until `m`'s transaction ends, so its counted limits are checked one change at a time. */
  lock(campaign_id: number, m: EntityManager): Promise<Campaign | null> {
    return m
      .getRepository(Campaign)
      .createQueryBuilder('c')
      .setLock('pessimistic_write')
      .where('c.campaign_id = :campaign_id', { campaign_id })
      .getOne();
  }

  insert(values: CampaignFields): Promise<Campaign> {
    return this.campaigns.save(this.campaigns.create(values));
  }

  async update(campaign_id: number, changes: Partial<CampaignFields>): Promise<void> {
    await this.campaigns.update({ campaign_id }, changes);
  }

  /** Marks the campaign as used now (the Last Used order). */
  async touch(campaign_id: number, m?: EntityManager): Promise<void> {
    await (m ? m.getRepository(Campaign) : this.campaigns)
      .createQueryBuilder()
      .update()
      .set({ updatedAt: () => 'now()' })
      .where('campaign_id = :campaign_id', { campaign_id })
      .execute();
  }

  async delete(campaign_id: number): Promise<void> {
    await this.campaigns.delete({ campaign_id });
  }

  // ------------------------------------------------------------ access

  async userIds(campaign_id: number): Promise<number[]> {
    const rows = await this.users.find({
      where: { campaign_id },
      order: { createdAt: 'ASC', user_id: 'ASC' },
    });
    return rows.map((r) => r.user_id);
  }

  async groupIds(campaign_id: number): Promise<number[]> {
    const rows = await this.groups.find({
      where: { campaign_id },
      order: { createdAt: 'ASC', group_id: 'ASC' },
    });
    return rows.map((r) => r.group_id);
  }

  async countGrants(campaign_id: number, m: EntityManager): Promise<number> {
    const [users, groups] = await Promise.all([
      m.getRepository(CampaignUser).countBy({ campaign_id }),
      m.getRepository(CampaignGroup).countBy({ campaign_id }),
    ]);
    return users + groups;
  }

  async grant(
    campaign_id: number,
    to: { user_id: number } | { group_id: number },
    m: EntityManager,
  ): Promise<void> {
    const entity = 'user_id' in to ? CampaignUser : CampaignGroup;
    await m
      .getRepository(entity)
      .createQueryBuilder()
      .insert()
      .values({ campaign_id, ...to })
      .orIgnore()
      .execute();
  }

  /** False when the campaign was not given to them. */
  async revoke(campaign_id: number, from: { user_id: number } | { group_id: number }): Promise<boolean> {
    const result =
      'user_id' in from
        ? await this.users.delete({ campaign_id, user_id: from.user_id })
        : await this.groups.delete({ campaign_id, group_id: from.group_id });
    return (result.affected ?? 0) > 0;
  }

  /** Ids of the organization's campaigns given to the user, directly or through one of `groupIds`. */
  async grantedTo(organizationId: number, userId: number, groupIds: number[]): Promise<number[]> {
    const qb = this.visibleTo(
      this.campaigns
        .createQueryBuilder('c')
        .select('c.campaign_id', 'campaign_id')
        .where('c.organization_id = :org', { org: organizationId }),
      { user_id: userId, all: false, owned: false, groupIds },
    );
    const rows = await qb.orderBy('c.campaign_id', 'ASC').getRawMany<{ campaign_id: number }>();
    return rows.map((r) => r.campaign_id);
  }

  // ------------------------------------------------------------ resources

  async resourceIds(campaign_id: number, type: CampaignResourceType, limit: number): Promise<number[]> {
    const rows = await this.resources.find({
      where: { campaign_id, type },
      order: { createdAt: 'DESC', resource_id: 'DESC' },
      take: limit,
    });
    return rows.map((r) => r.resource_id);
  }

  hasResource(
    campaign_id: number,
    type: CampaignResourceType,
    resource_id: number,
    m?: EntityManager,
  ): Promise<boolean> {
    return (m ? m.getRepository(CampaignResource) : this.resources).existsBy({
      campaign_id,
      type,
      resource_id,
    });
  }

  countResources(campaign_id: number, m: EntityManager): Promise<number> {
    return m.getRepository(CampaignResource).countBy({ campaign_id });
  }

  async addResource(
    campaign_id: number,
    type: CampaignResourceType,
    resource_id: number,
    m: EntityManager,
  ): Promise<void> {
    await m
      .getRepository(CampaignResource)
      .createQueryBuilder()
      .insert()
      .values({ campaign_id, type, resource_id })
      .orIgnore()
      .execute();
  }

  /** False when the resource was not in the campaign. */
  async removeResource(
    campaign_id: number,
    type: CampaignResourceType,
    resource_id: number,
  ): Promise<boolean> {
    const result = await this.resources.delete({ campaign_id, type, resource_id });
    return (result.affected ?? 0) > 0;
  }
}
