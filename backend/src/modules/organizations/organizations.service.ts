import { forwardRef, Inject, Injectable } from '@nestjs/common';
import { EntityManager, QueryFailedError } from 'typeorm';
import { ORG_ROLE_BY_ID } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { SecretBox, isMasked, maskSecret } from '../../common/crypto/secret-box';
import { badInput, conflict, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { APP_ENV, AppEnv } from '../../config/env';
import { UnitOfWork } from '../../database/unit-of-work';
import { UsersService } from '../users/users.service';
import {
  AdminOrganization,
  AllOrganizationsQuery,
  AllOrganizationsResponse,
  CreateOrganizationBody,
  MyOrganization,
  MyOrganizationsResponse,
  OrganizationFieldsBody,
  OrganizationLookupQuery,
  OrganizationResponse,
  OrganizationUsersQuery,
  OrganizationUsersResponse,
  OrganizationView,
  PublicOrganizationResponse,
  UpdateOrganizationBody,
  UserTypeView,
} from './dto/organization.dto';
import { MemberUsage } from './member-usage';
import { AccessPolicy, Standing } from './access-policy';
import {
  dayRange,
  slugify,
  slugProblem,
  slugReservedMessage,
  SLUG_INVALID,
  SLUG_TAKEN,
} from './organization-rules';
import type { Organization } from './organization.entity';
import { OrganizationsRepository } from './organizations.repository';

/**
 * Types of the services reached through forwardRef (their modules use each other): the constructor names them by
 * alias, so the decorator metadata does not read the classes while the files are still loading each other.
 */
type UsersServiceRef = UsersService;

export const NAME_MISMATCH = 'Organization name does not match. Deletion aborted.';
export const DOMAIN_TAKEN = 'That domain is already used by another organization.';

const SECRET_FIELDS = ['stripe_secret', 'stripe_webhook_secret', 'openai_api_key'] as const;
const PLAIN_FIELDS = ['tagline', 'thumbnail', 'welcome_video', 'domain', 'stripe_public'] as const;
const SLUG_ATTEMPTS = 5;
const USERS_PAGE_SIZE = 25;
const ALL_PAGE_SIZE = 20;

/** The unique constraint a failed insert or update hit, if that was the cause. */
function uniqueViolation(err: unknown): string | null {
  if (!(err instanceof QueryFailedError)) return null;
  const driver = (err as QueryFailedError & { driverError?: { code?: string; constraint?: string } })
    .driverError;
  return driver?.code === '23505' ? (driver.constraint ?? '') : null;
}

function userType(userTypeId: number): UserTypeView {
  return { user_type_id: userTypeId, name: ORG_ROLE_BY_ID[userTypeId] };
}

@Injectable()
export class OrganizationsService {
  private readonly box: SecretBox;

  constructor(
    private readonly orgs: OrganizationsRepository,
    private readonly transactions: UnitOfWork,
    @Inject(forwardRef(() => UsersService)) private readonly users: UsersServiceRef,
    private readonly policy: AccessPolicy,
    private readonly usage: MemberUsage,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.box = new SecretBox(env.appSecret);
  }

  /** The caller's own memberships, by name. */
  async listMine(principal: Principal, query?: string): Promise<MyOrganizationsResponse> {
    const rows = await this.orgs.listOfUser(principal.user_id, query);
    return {
      organizations: rows.map(({ organization: o, user_type_id }): MyOrganization => ({
        organization_id: o.organization_id,
        name: o.name,
        slug: o.slug,
        tagline: o.tagline,
        thumbnail: o.thumbnail,
        domain: o.domain,
        user_type: userType(user_type_id),
      })),
    };
  }

  /** A user's organizations with their role in each, by name (the back office's customer screen); at most `limit`. */
  async membershipsOf(
    user_id: number,
    limit: number,
  ): Promise<{ organization_id: number; name: string; slug: string; role: string }[]> {
    const rows = await this.orgs.listOfUser(user_id, undefined);
    return rows.slice(0, limit).map(({ organization: o, user_type_id }) => ({
      organization_id: o.organization_id,
      name: o.name,
      slug: o.slug,
      role: ORG_ROLE_BY_ID[user_type_id],
    }));
  }

  /** Every organization, for the staff back office. */
  async listAll(principal: Principal, query: AllOrganizationsQuery): Promise<AllOrganizationsResponse> {
    await this.policy.demand(principal, 'organization.listAll');
    const page = toPage(query, ALL_PAGE_SIZE);
    const { page: pageNumber, limit } = page;
    const { rows, total } = await this.orgs.pageAll(principal.user_id, query.query, page);
    return {
      organizations: rows.map(({ user_type_id, ...org }) => ({
        ...org,
        user_type: user_type_id ? userType(user_type_id) : null,
      })) as AdminOrganization[],
      total,
      page: pageNumber,
      limit,
    };
  }

  /** The organization choice order's first step: a match on slug, else on domain. Public fields only. */
  async lookup(query: OrganizationLookupQuery): Promise<PublicOrganizationResponse> {
    if (!query.slug && !query.domain)
      throw badInput('Send a slug or a domain to look up.', 'lookup_required');
    let org = query.slug ? await this.orgs.findBySlug(query.slug) : null;
    if (!org && query.domain) org = await this.orgs.findByDomain(query.domain);
    if (!org) throw notFound('Organization', 'organization_not_found');
    const { organization_id, name, slug, tagline, thumbnail, welcome_video, domain } = org;
    return { organization: { organization_id, name, slug, tagline, thumbnail, welcome_video, domain } };
  }

  async get(principal: Principal, organizationId: number): Promise<OrganizationResponse> {
    const standing = await this.policy.demand(principal, 'organization.view', {
      organization_id: organizationId,
    });
    return { organization: this.toView(await this.load(organizationId), standing) };
  }

  /** Staff create organizations; the creator becomes its Admin. */
  async create(principal: Principal, body: CreateOrganizationBody): Promise<OrganizationResponse> {
    await this.policy.demand(principal, 'organization.create');
    const fields: Partial<Organization> = { name: body.name };
    this.applyFields(fields, body);
    if (fields.domain) await this.assertDomainFree(fields.domain, null);
    // null, like a left-out slug, means no choice.
    if (body.slug != null) await this.assertSlugUsable(body.slug, null);

    for (let attempt = 1; ; attempt++) {
      try {
        const { org, membership } = await this.transactions.run(async (tx) => {
          const slug = body.slug ?? (await this.uniqueSlug(tx, body.name));
          const org = await this.orgs.save({ ...fields, slug }, tx);
          const membership = await this.orgs.insertMembership(
            { user_id: principal.user_id, organization_id: org.organization_id, user_type_id: 1 },
            tx,
          );
          return { org, membership };
        });
        const standing: Standing = {
          organization_id: org.organization_id,
          user_id: principal.user_id,
          staffRole: principal.staffRole,
          orgRole: 'Admin',
          membership: { user_organization_id: membership.user_organization_id, user_type_id: 1 },
          self: false,
        };
        return { organization: this.toView(org, standing) };
      } catch (err) {
        // Two organizations of the same name created at once race for the slug: pick the next one.
        const chosen = body.slug != null;
        if (uniqueViolation(err) === 'organizations_slug_key' && !chosen && attempt < SLUG_ATTEMPTS) continue;
        throw this.mapUnique(err);
      }
    }
  }

  /** Its Admin, or a staff admin, changes the settings. Left-out fields stay as they are. */
  async update(principal: Principal, body: UpdateOrganizationBody): Promise<OrganizationResponse> {
    const standing = await this.policy.demand(principal, 'organization.edit', {
      organization_id: body.organization_id,
    });
    const org = await this.load(body.organization_id);
    const previousDomain = org.domain;
    if (body.name !== undefined) org.name = body.name;
    this.applyFields(org, body);
    if (org.domain && org.domain !== previousDomain)
      await this.assertDomainFree(org.domain, org.organization_id);
    if (body.slug != null && body.slug !== org.slug) {
      await this.assertSlugUsable(body.slug, org.organization_id);
      org.slug = body.slug;
    }
    try {
      await this.orgs.save(org);
    } catch (err) {
      throw this.mapUnique(err);
    }
    return { organization: this.toView(await this.load(org.organization_id), standing) };
  }

  /** Its Admin, or a staff admin, deletes it after typing its name exactly. Memberships go with it. */
  async remove(principal: Principal, organizationId: number, typedName: string | undefined): Promise<void> {
    await this.policy.demand(principal, 'organization.delete', { organization_id: organizationId });
    const org = await this.load(organizationId);
    if (typedName !== org.name) throw badInput(NAME_MISMATCH, 'name_mismatch');
    // users.default_organization is cleared by its ON DELETE SET NULL foreign key.
    await this.orgs.delete(organizationId);
  }

  /** The organization's members with their usage in the date range (default the current month). */
  async listUsers(
    principal: Principal,
    organizationId: number,
    query: OrganizationUsersQuery,
  ): Promise<OrganizationUsersResponse> {
    await this.policy.demand(principal, 'organization.users.view', { organization_id: organizationId });
    const range = dayRange(query.start_date, query.end_date);
    if (!range) throw badInput('start_date must be on or before end_date.', 'invalid_date_range');
    const page = toPage(query, USERS_PAGE_SIZE);
    // Members come from this module, their names and emails from the users module, which pages and searches them.
    const members = new Map((await this.orgs.membersOf(organizationId)).map((m) => [m.user_id, m]));
    const { rows: people, total } = await this.users.pageAmong([...members.keys()], query.query, page);
    const rows = people.map((u) => {
      const m = members.get(u.user_id)!;
      return {
        user_organization_id: m.user_organization_id,
        user_id: u.user_id,
        name: u.name,
        last_name: u.last_name,
        email: u.email,
        role: ORG_ROLE_BY_ID[m.user_type_id],
        user_type_id: m.user_type_id,
        last_use: m.last_use,
      };
    });
    const userIds = rows.map((r) => r.user_id);
    const [words, ltv] = await Promise.all([
      this.usage.totalWords(organizationId, userIds, range),
      this.usage.lifetimeValue(organizationId, userIds, range),
    ]);
    return {
      users: rows.map(({ last_use, ...row }) => ({
        ...row,
        total_words: words.get(row.user_id) ?? 0,
        last_used: this.usage.lastUsed(last_use, range),
        ltv: ltv.get(row.user_id) ?? 0,
      })),
      total,
      page: page.page,
      limit: page.limit,
      start_date: range.start_date,
      end_date: range.end_date,
    };
  }

  // ---------------------------------------------------------------- helpers

  private async load(organizationId: number): Promise<Organization> {
    const org = await this.orgs.findById(organizationId);
    if (!org) throw notFound('Organization', 'organization_not_found');
    return org;
  }

  /** Whether the user is a member of the organization. */
  async isMember(user_id: number, organizationId: number): Promise<boolean> {
    return (await this.orgs.membership(organizationId, user_id)) !== null;
  }

  /**
   * Copies the settings that were sent: '' or null clears a field; a secret is encrypted, and a masked secret
   * (what GET answered) leaves the stored one unchanged.
   */
  private applyFields(target: Partial<Organization>, body: OrganizationFieldsBody): void {
    for (const field of PLAIN_FIELDS) {
      const value = body[field];
      if (value !== undefined) target[field] = value || null;
    }
    for (const field of SECRET_FIELDS) {
      const value = body[field];
      if (value === undefined || isMasked(value)) continue;
      target[field] = value ? this.box.encrypt(value) : null;
    }
  }

  private async assertDomainFree(domain: string, exceptId: number | null): Promise<void> {
    if (await this.orgs.domainTaken(domain, exceptId)) throw conflict(DOMAIN_TAKEN, 'domain_taken');
  }

  /** A slug an Admin chose: well formed, not one of the app's routes, not another organization's. */
  private async assertSlugUsable(slug: string, exceptId: number | null): Promise<void> {
    const problem = slugProblem(slug);
    if (problem === 'invalid') throw badInput(SLUG_INVALID, 'invalid_slug');
    if (problem === 'reserved') throw badInput(slugReservedMessage(slug), 'slug_reserved');
    if (await this.orgs.slugTaken(slug, exceptId)) throw conflict(SLUG_TAKEN, 'slug_taken');
  }

  /** The name's slug, or the first free `slug-N` after it; an app route's name (pricing) is never free. */
  private async uniqueSlug(tx: EntityManager, name: string): Promise<string> {
    const base = slugify(name);
    const taken = new Set(await this.orgs.slugsLike(base, tx));
    if (!taken.has(base) && slugProblem(base) === null) return base;
    let n = 2;
    while (taken.has(`${base}-${n}`)) n++;
    return `${base}-${n}`;
  }

  private mapUnique(err: unknown): unknown {
    const key = uniqueViolation(err);
    if (key === 'organizations_slug_key') return conflict(SLUG_TAKEN, 'slug_taken');
    return key === 'organizations_domain_key' ? conflict(DOMAIN_TAKEN, 'domain_taken') : err;
  }

  private toView(org: Organization, standing: Standing): OrganizationView {
    // Members get no hint of the keys; Managers, Admins and staff see them masked (last 4 characters at most).
    const showSecrets = this.policy.allows(standing, 'organization.users.view');
    return {
      organization_id: org.organization_id,
      name: org.name,
      slug: org.slug,
      tagline: org.tagline,
      thumbnail: org.thumbnail,
      welcome_video: org.welcome_video,
      domain: org.domain,
      stripe_public: org.stripe_public,
      stripe_secret: showSecrets ? this.masked(org.stripe_secret) : null,
      stripe_webhook_secret: showSecrets ? this.masked(org.stripe_webhook_secret) : null,
      openai_api_key: showSecrets ? this.masked(org.openai_api_key) : null,
      user_type: standing.membership ? userType(standing.membership.user_type_id) : null,
      createdAt: org.createdAt,
      updatedAt: org.updatedAt,
    };
  }

  private masked(stored: string | null): string | null {
    if (!stored) return null;
    try {
      return maskSecret(this.box.decrypt(stored));
    } catch {
      // Encrypted under another APP_SECRET: still say that a value is set, without its tail.
      return maskSecret('x');
    }
  }

  /** The decrypted secrets, for the modules that call Stripe or the AI provider on the organization's behalf. */
  async secrets(organizationId: number): Promise<{
    stripe_public: string | null;
    stripe_secret: string | null;
    stripe_webhook_secret: string | null;
    openai_api_key: string | null;
  }> {
    const org = await this.load(organizationId);
    const open = (v: string | null) => (v ? this.box.decrypt(v) : null);
    return {
      stripe_public: org.stripe_public,
      stripe_secret: open(org.stripe_secret),
      stripe_webhook_secret: open(org.stripe_webhook_secret),
      openai_api_key: open(org.openai_api_key),
    };
  }
}
