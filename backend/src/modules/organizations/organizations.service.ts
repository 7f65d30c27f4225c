import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError, Repository } from 'typeorm';
import { ORG_ROLE_BY_ID } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { SecretBox, isMasked, maskSecret } from '../../common/crypto/secret-box';
import { badInput, conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { APP_ENV, AppEnv } from '../../config/env';
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
import { OrgActor, OrganizationAccess, canViewAdminPanel, demand } from './organization-access';
import { dayRange, slugify } from './organization-rules';
import { Organization, UserOrganization } from './organization.entity';

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

function searchPattern(query: string | undefined): string | null {
  const text = query?.trim();
  return text ? likePattern(text) : null;
}

@Injectable()
export class OrganizationsService {
  private readonly box: SecretBox;

  constructor(
    private readonly db: DataSource,
    @InjectRepository(Organization) private readonly orgs: Repository<Organization>,
    private readonly access: OrganizationAccess,
    private readonly usage: MemberUsage,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.box = new SecretBox(env.appSecret);
  }

  /** The caller's own memberships, by name. */
  async listMine(principal: Principal, query?: string): Promise<MyOrganizationsResponse> {
    const rows: (Omit<MyOrganization, 'user_type'> & { user_type_id: number })[] = await this.db.query(
      `SELECT o.organization_id, o.name, o.slug, o.tagline, o.thumbnail, o.domain, uo.user_type_id
         FROM user_organizations uo
         JOIN organizations o ON o.organization_id = uo.organization_id
        WHERE uo.user_id = $1 AND ($2::text IS NULL OR o.name ILIKE $2)
        ORDER BY lower(o.name), o.organization_id`,
      [principal.user_id, searchPattern(query)],
    );
    return {
      organizations: rows.map(({ user_type_id, ...org }) => ({ ...org, user_type: userType(user_type_id) })),
    };
  }

  /** Every organization, for the staff back office. */
  async listAll(principal: Principal, query: AllOrganizationsQuery): Promise<AllOrganizationsResponse> {
    demand({ staffRole: principal.staffRole, orgRole: null }, 'organization.listAll');
    const { page, limit, skip } = toPage(query, ALL_PAGE_SIZE);
    const search = searchPattern(query.query);
    const where = `($1::text IS NULL OR o.name ILIKE $1 OR o.slug ILIKE $1 OR o.domain ILIKE $1)`;
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT o.organization_id, o.name, o.slug, o.tagline, o.thumbnail, o.domain, o."createdAt",
                (SELECT count(*)::int FROM user_organizations c WHERE c.organization_id = o.organization_id)
                  AS users_count,
                uo.user_type_id
           FROM organizations o
           LEFT JOIN user_organizations uo ON uo.organization_id = o.organization_id AND uo.user_id = $2
          WHERE ${where}
          ORDER BY lower(o.name), o.organization_id
          LIMIT $3 OFFSET $4`,
        [search, principal.user_id, limit, skip],
      ) as Promise<(Omit<AdminOrganization, 'user_type'> & { user_type_id: number | null })[]>,
      this.db.query(`SELECT count(*)::int AS total FROM organizations o WHERE ${where}`, [search]) as Promise<
        { total: number }[]
      >,
    ]);
    return {
      organizations: rows.map(({ user_type_id, ...org }) => ({
        ...org,
        user_type: user_type_id ? userType(user_type_id) : null,
      })),
      total,
      page,
      limit,
    };
  }

  /** The organization choice order's first step: a match on slug, else on domain. Public fields only. */
  async lookup(query: OrganizationLookupQuery): Promise<PublicOrganizationResponse> {
    if (!query.slug && !query.domain)
      throw badInput('Send a slug or a domain to look up.', 'lookup_required');
    let org = query.slug ? await this.orgs.findOneBy({ slug: query.slug }) : null;
    if (!org && query.domain) org = await this.orgs.findOneBy({ domain: query.domain });
    if (!org) throw notFound('Organization', 'organization_not_found');
    const { organization_id, name, slug, tagline, thumbnail, welcome_video, domain } = org;
    return { organization: { organization_id, name, slug, tagline, thumbnail, welcome_video, domain } };
  }

  async get(principal: Principal, organizationId: number): Promise<OrganizationResponse> {
    const actor = await this.access.actor(principal, organizationId);
    return { organization: this.toView(await this.load(organizationId), actor) };
  }

  /** Staff create organizations; the creator becomes its Admin. */
  async create(principal: Principal, body: CreateOrganizationBody): Promise<OrganizationResponse> {
    demand({ staffRole: principal.staffRole, orgRole: null }, 'organization.create');
    const fields: Partial<Organization> = { name: body.name };
    this.applyFields(fields, body);
    if (fields.domain) await this.assertDomainFree(fields.domain, null);

    for (let attempt = 1; ; attempt++) {
      try {
        const { org, membership } = await this.db.transaction(async (m) => {
          const org = await m.save(
            Organization,
            m.create(Organization, { ...fields, slug: await this.uniqueSlug(m, body.name) }),
          );
          const membership = await m.save(
            UserOrganization,
            m.create(UserOrganization, {
              user_id: principal.user_id,
              organization_id: org.organization_id,
              user_type_id: 1,
            }),
          );
          return { org, membership };
        });
        const actor: OrgActor = {
          organization_id: org.organization_id,
          user_id: principal.user_id,
          staffRole: principal.staffRole,
          orgRole: 'Admin',
          membership: { user_organization_id: membership.user_organization_id, user_type_id: 1 },
        };
        return { organization: this.toView(org, actor) };
      } catch (err) {
        // Two organizations of the same name created at once race for the slug: pick the next one.
        if (uniqueViolation(err) === 'organizations_slug_key' && attempt < SLUG_ATTEMPTS) continue;
        throw this.mapUnique(err);
      }
    }
  }

  /** Its Admin, or a staff admin, changes the settings. Left-out fields stay as they are. */
  async update(principal: Principal, body: UpdateOrganizationBody): Promise<OrganizationResponse> {
    const actor = await this.access.actor(principal, body.organization_id);
    demand(actor, 'organization.edit');
    const org = await this.load(body.organization_id);
    const previousDomain = org.domain;
    if (body.name !== undefined) org.name = body.name;
    this.applyFields(org, body);
    if (org.domain && org.domain !== previousDomain)
      await this.assertDomainFree(org.domain, org.organization_id);
    try {
      await this.orgs.save(org);
    } catch (err) {
      throw this.mapUnique(err);
    }
    return { organization: this.toView(await this.load(org.organization_id), actor) };
  }

  /** Its Admin, or a staff admin, deletes it after typing its name exactly. Memberships go with it. */
  async remove(principal: Principal, organizationId: number, typedName: string | undefined): Promise<void> {
    const actor = await this.access.actor(principal, organizationId);
    demand(actor, 'organization.delete');
    const org = await this.load(organizationId);
    if (typedName !== org.name) throw badInput(NAME_MISMATCH, 'name_mismatch');
    // users.default_organization is cleared by its ON DELETE SET NULL foreign key.
    await this.orgs.delete({ organization_id: organizationId });
  }

  /** The organization's members with their usage in the date range (default the current month). */
  async listUsers(
    principal: Principal,
    organizationId: number,
    query: OrganizationUsersQuery,
  ): Promise<OrganizationUsersResponse> {
    const actor = await this.access.actor(principal, organizationId);
    if (!canViewAdminPanel(actor)) throw forbidden();
    const range = dayRange(query.start_date, query.end_date);
    if (!range) throw badInput('start_date must be on or before end_date.', 'invalid_date_range');
    const { page, limit, skip } = toPage(query, USERS_PAGE_SIZE);
    const search = searchPattern(query.query);
    const where = `uo.organization_id = $1 AND ($2::text IS NULL OR u.name ILIKE $2 OR u.last_name ILIKE $2
                   OR u.email ILIKE $2 OR (u.name || ' ' || u.last_name) ILIKE $2)`;
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT uo.user_organization_id, u.user_id, u.name, u.last_name, u.email, ut.name AS role,
                uo.user_type_id, uo.last_use
           FROM user_organizations uo
           JOIN users u ON u.user_id = uo.user_id
           JOIN user_types ut ON ut.user_type_id = uo.user_type_id
          WHERE ${where}
          ORDER BY u.user_id
          LIMIT $3 OFFSET $4`,
        [organizationId, search, limit, skip],
      ) as Promise<
        {
          user_organization_id: number;
          user_id: number;
          name: string;
          last_name: string;
          email: string;
          role: string;
          user_type_id: number;
          last_use: Date | null;
        }[]
      >,
      this.db.query(
        `SELECT count(*)::int AS total FROM user_organizations uo JOIN users u ON u.user_id = uo.user_id
          WHERE ${where}`,
        [organizationId, search],
      ) as Promise<{ total: number }[]>,
    ]);
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
      page,
      limit,
      start_date: range.start_date,
      end_date: range.end_date,
    };
  }

  // ---------------------------------------------------------------- helpers

  private async load(organizationId: number): Promise<Organization> {
    const org = await this.orgs.findOneBy({ organization_id: organizationId });
    if (!org) throw notFound('Organization', 'organization_not_found');
    return org;
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
    const taken: unknown[] = await this.db.query(
      `SELECT 1 FROM organizations WHERE domain = $1 AND ($2::int IS NULL OR organization_id <> $2)`,
      [domain, exceptId],
    );
    if (taken.length) throw conflict(DOMAIN_TAKEN, 'domain_taken');
  }

  /** The name's slug, or the first free `slug-N` after it. */
  private async uniqueSlug(m: EntityManager, name: string): Promise<string> {
    const base = slugify(name);
    const rows: { slug: string }[] = await m.query(
      `SELECT slug FROM organizations WHERE slug = $1 OR slug LIKE $2`,
      [base, `${base}-%`],
    );
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base}-${n}`)) n++;
    return `${base}-${n}`;
  }

  private mapUnique(err: unknown): unknown {
    return uniqueViolation(err) === 'organizations_domain_key' ? conflict(DOMAIN_TAKEN, 'domain_taken') : err;
  }

  private toView(org: Organization, actor: OrgActor): OrganizationView {
    // Members get no hint of the keys; Managers, Admins and staff see them masked (last 4 characters at most).
    const showSecrets = canViewAdminPanel(actor);
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
      user_type: actor.membership ? userType(actor.membership.user_type_id) : null,
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
    stripe_secret: string | null;
    stripe_webhook_secret: string | null;
    openai_api_key: string | null;
  }> {
    const org = await this.load(organizationId);
    const open = (v: string | null) => (v ? this.box.decrypt(v) : null);
    return {
      stripe_secret: open(org.stripe_secret),
      stripe_webhook_secret: open(org.stripe_webhook_secret),
      openai_api_key: open(org.openai_api_key),
    };
  }
}
