import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Not, Repository } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { likePattern } from '../../common/http/pagination';
import { Organization, UserOrganization } from './organization.entity';

export interface Membership {
  user_organization_id: number;
  user_id: number;
  organization_id: number;
  user_type_id: number;
  last_use: Date | null;
}

export type OrganizationSummary = Pick<
  Organization,
  'organization_id' | 'name' | 'slug' | 'tagline' | 'thumbnail' | 'domain' | 'createdAt'
>;

const SUMMARY = [
  'o.organization_id',
  'o.name',
  'o.slug',
  'o.tagline',
  'o.thumbnail',
  'o.domain',
  'o.createdAt',
];

function searchText(search: string | undefined): string | null {
  const text = search?.trim();
  return text ? likePattern(text) : null;
}

/** The organizations, user_organizations and user_types tables: the only code that reads or writes them. */
@Injectable()
export class OrganizationsRepository {
  constructor(
    @InjectRepository(Organization) private readonly orgs: Repository<Organization>,
    @InjectRepository(UserOrganization) private readonly members: Repository<UserOrganization>,
  ) {}

  private orgRepo(tx?: EntityManager): Repository<Organization> {
    return tx ? tx.getRepository(Organization) : this.orgs;
  }

  private memberRepo(tx?: EntityManager): Repository<UserOrganization> {
    return tx ? tx.getRepository(UserOrganization) : this.members;
  }

  // ------------------------------------------------------------ organizations

  findById(organization_id: number, tx?: EntityManager): Promise<Organization | null> {
    return this.orgRepo(tx).findOneBy({ organization_id });
  }

  findBySlug(slug: string): Promise<Organization | null> {
    return this.orgs.findOneBy({ slug });
  }

  findByDomain(domain: string): Promise<Organization | null> {
    return this.orgs.findOneBy({ domain });
  }

  async exists(organization_id: number): Promise<boolean> {
    return this.orgs.exists({ where: { organization_id } });
  }

  async domainTaken(domain: string, exceptId: number | null): Promise<boolean> {
    return this.orgs.exists({
      where: exceptId === null ? { domain } : { domain, organization_id: Not(exceptId) },
    });
  }

  async slugTaken(slug: string, exceptId: number | null): Promise<boolean> {
    return this.orgs.exists({
      where: exceptId === null ? { slug } : { slug, organization_id: Not(exceptId) },
    });
  }

  /** Slugs equal to `base` or of the form `base-...`, to pick a free one. */
  async slugsLike(base: string, tx: EntityManager): Promise<string[]> {
    const rows = await this.orgRepo(tx)
      .createQueryBuilder('o')
      .select('o.slug')
      .where('o.slug = :base OR o.slug LIKE :prefix', { base, prefix: `${base}-%` })
      .getMany();
    return rows.map((r) => r.slug);
  }

  save(org: Partial<Organization>, tx?: EntityManager): Promise<Organization> {
    return this.orgRepo(tx).save(this.orgRepo(tx).create(org));
  }

  async delete(organization_id: number): Promise<void> {
    await this.orgs.delete({ organization_id });
  }

  /** Locks the organization's row, so concurrent membership changes in it take turns. */
  async lock(organization_id: number, tx: EntityManager): Promise<void> {
    await this.orgRepo(tx)
      .createQueryBuilder('o')
      .select('o.organization_id')
      .where('o.organization_id = :organization_id', { organization_id })
      .setLock('pessimistic_write')
      .getOne();
  }

  /** The user's organizations with their role there, by name. */
  async listOfUser(
    user_id: number,
    search: string | undefined,
  ): Promise<{ organization: OrganizationSummary; user_type_id: number }[]> {
    const qb = this.members
      .createQueryBuilder('uo')
      .innerJoinAndSelect('uo.organization', 'o')
      .where('uo.user_id = :user_id', { user_id });
    const q = searchText(search);
    if (q) qb.andWhere('o.name ILIKE :q', { q });
    const rows = await qb.orderBy('lower(o.name)').addOrderBy('o.organization_id').getMany();
    return rows.map((r) => ({ organization: r.organization!, user_type_id: r.user_type_id }));
  }

  /**
   * Every organization (back office) whose name, slug or domain contains `search`, by name, with its member count
   * and the caller's role there.
   */
  async pageAll(
    user_id: number,
    search: string | undefined,
    page: Page,
  ): Promise<{
    rows: (OrganizationSummary & { users_count: number; user_type_id: number | null })[];
    total: number;
  }> {
    const q = searchText(search);
    const where = q ? '(o.name ILIKE :q OR o.slug ILIKE :q OR o.domain ILIKE :q)' : 'TRUE';
    const qb = this.orgs
      .createQueryBuilder('o')
      .select(SUMMARY)
      .addSelect(
        (sub) =>
          sub
            .select('count(*)::int')
            .from(UserOrganization, 'c')
            .where('c.organization_id = o.organization_id'),
        'users_count',
      )
      .addSelect('uo.user_type_id', 'user_type_id')
      .leftJoin(UserOrganization, 'uo', 'uo.organization_id = o.organization_id AND uo.user_id = :user_id', {
        user_id,
      })
      .where(where, { q })
      .orderBy('lower(o.name)')
      .addOrderBy('o.organization_id')
      .offset(page.skip)
      .limit(page.limit);
    const [{ entities, raw }, total] = await Promise.all([
      qb.getRawAndEntities(),
      this.orgs.createQueryBuilder('o').where(where, { q }).getCount(),
    ]);
    const extra = new Map(
      (raw as { o_organization_id: number; users_count: number; user_type_id: number | null }[]).map((r) => [
        r.o_organization_id,
        r,
      ]),
    );
    return {
      rows: entities.map((o) => ({
        organization_id: o.organization_id,
        name: o.name,
        slug: o.slug,
        tagline: o.tagline,
        thumbnail: o.thumbnail,
        domain: o.domain,
        createdAt: o.createdAt,
        users_count: extra.get(o.organization_id)?.users_count ?? 0,
        user_type_id: extra.get(o.organization_id)?.user_type_id ?? null,
      })),
      total,
    };
  }

  // ------------------------------------------------------------ memberships

  membership(organization_id: number, user_id: number, tx?: EntityManager): Promise<UserOrganization | null> {
    return this.memberRepo(tx).findOneBy({ organization_id, user_id });
  }

  membershipById(user_organization_id: number, tx?: EntityManager): Promise<UserOrganization | null> {
    return this.memberRepo(tx).findOneBy({ user_organization_id });
  }

  /** Every member of the organization (user ids and roles; no user fields). */
  membersOf(organization_id: number): Promise<UserOrganization[]> {
    return this.members.find({ where: { organization_id }, order: { user_id: 'ASC' } });
  }

  async insertMembership(
    values: { user_id: number; organization_id: number; user_type_id: number },
    tx?: EntityManager,
  ): Promise<UserOrganization> {
    return this.memberRepo(tx).save(this.memberRepo(tx).create(values));
  }

  /** Adds the membership unless the user is already a member (who keeps the role they have). */
  async insertMembershipIfAbsent(
    values: { user_id: number; organization_id: number; user_type_id: number },
    tx: EntityManager,
  ): Promise<UserOrganization> {
    await this.memberRepo(tx)
      .createQueryBuilder()
      .insert()
      .into(UserOrganization)
      .values(values)
      .orIgnore()
      .execute();
    return (await this.membership(values.organization_id, values.user_id, tx))!;
  }

  async setRole(user_organization_id: number, user_type_id: number, tx: EntityManager): Promise<void> {
    await this.memberRepo(tx).update({ user_organization_id }, { user_type_id });
  }

  async deleteMembership(user_organization_id: number, tx: EntityManager): Promise<void> {
    await this.memberRepo(tx).delete({ user_organization_id });
  }

  async adminsOtherThan(
    organization_id: number,
    adminTypeId: number,
    user_organization_id: number,
    tx: EntityManager,
  ): Promise<number> {
    return this.memberRepo(tx).count({
      where: { organization_id, user_type_id: adminTypeId, user_organization_id: Not(user_organization_id) },
    });
  }

  /** Records "last used" at most once a minute per membership, to keep reads cheap. */
  async touchLastUse(organization_id: number, user_id: number): Promise<void> {
    await this.members
      .createQueryBuilder()
      .update(UserOrganization)
      .set({ last_use: () => 'now()', updatedAt: () => '"updatedAt"' })
      .where('organization_id = :organization_id AND user_id = :user_id', { organization_id, user_id })
      .andWhere(`(last_use IS NULL OR last_use < now() - interval '1 minute')`)
      .execute();
  }
}
