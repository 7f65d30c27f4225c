import type { Principal } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import { AccessPolicy } from './access-policy';
import type { OrganizationsRepository } from './organizations.repository';

/** Organization 1 exists; user 10 is its Manager, user 11 its Member. */
function policy(): AccessPolicy {
  const memberships: Record<number, { user_organization_id: number; user_type_id: number }> = {
    10: { user_organization_id: 100, user_type_id: 2 },
    11: { user_organization_id: 101, user_type_id: 3 },
  };
  const repo = {
    membership: async (organization_id: number, user_id: number) =>
      organization_id === 1 && memberships[user_id]
        ? { organization_id, user_id, ...memberships[user_id] }
        : null,
    findById: async (organization_id: number) => (organization_id === 1 ? { organization_id } : null),
    exists: async (organization_id: number) => organization_id === 1,
  } as unknown as OrganizationsRepository;
  return new AccessPolicy(repo);
}

function principal(user_id: number, staffRole: Principal['staffRole'] = null): Principal {
  return { user_id, email: `${user_id}@example.com`, session_id: 's', via: 'token', staffRole, org: null };
}

async function status(work: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await work;
    return 'ok';
  } catch (err) {
    return (err as DomainError).status;
  }
}

describe('AccessPolicy', () => {
  const org = { organization_id: 1 };

  it('answers from the permission table by organization role', async () => {
    const p = policy();
    expect(await p.may(principal(10), 'organization.users.view', org)).toBe(true);
    expect(await p.may(principal(11), 'organization.users.view', org)).toBe(false);
    expect(await status(p.demand(principal(11), 'organization.edit', org))).toBe(403);
  });

  it('hides another organization, or a missing one, behind 404', async () => {
    const p = policy();
    expect(await status(p.demand(principal(12), 'organization.view', org))).toBe(404);
    expect(await status(p.demand(principal(12, 'admin'), 'organization.view', { organization_id: 2 }))).toBe(
      404,
    );
    expect(await status(p.demand(principal(12, 'manager'), 'organization.view', org))).toBe('ok');
  });

  it('lets the resource’s own user act where the permission says self', async () => {
    const p = policy();
    const ownMembership = { organization_id: 1, user_id: 11 };
    expect(await p.may(principal(11), 'organization.users.remove', ownMembership)).toBe(true);
    expect(await p.may(principal(11), 'organization.users.remove', { organization_id: 1, user_id: 10 })).toBe(
      false,
    );
    expect(await p.may(principal(11), 'organization.users.edit', ownMembership)).toBe(false);
  });

  it('judges actions on no resource by the staff role', () => {
    const p = policy();
    expect(p.permits(principal(1, 'manager'), 'apiKey.staffUse')).toBe(true);
    expect(p.permits(principal(1), 'apiKey.staffUse')).toBe(false);
    expect(p.permits(principal(1, 'manager'), 'users.staffAccountResetLink')).toBe(false);
    expect(p.permits(principal(1, 'admin'), 'users.staffAccountResetLink')).toBe(true);
  });

  it('judges a resource outside organizations by the staff role and by being its user', () => {
    const p = policy();
    const own = { user_id: 1 };
    const others = { user_id: 2 };
    const system = { user_id: null };
    expect(p.permits(principal(1), 'template.edit', own)).toBe(true);
    expect(p.permits(principal(1), 'template.edit', others)).toBe(false);
    expect(p.permits(principal(1), 'template.edit', system)).toBe(false);
    expect(p.permits(principal(1, 'manager'), 'template.edit', others)).toBe(false);
    expect(p.permits(principal(1, 'admin'), 'template.edit', system)).toBe(true);
    expect(p.permits(principal(1, 'manager'), 'template.editSettings', others)).toBe(true);
    expect(p.permits(principal(1), 'template.editSettings', others)).toBe(false);
    expect(p.permits(principal(1), 'template.makePublic', own)).toBe(false);
    expect(p.permits(principal(1), 'words.unmetered')).toBe(false);
    expect(p.permits(principal(1, 'manager'), 'words.unmetered')).toBe(true);
  });

  it('resolves the request scope into a frozen value', async () => {
    const p = policy();
    const scope = await p.scope(principal(10), 1, false);
    expect(scope).toEqual({ organization_id: 1, role: 'Manager', member: true });
    expect(Object.isFrozen(scope)).toBe(true);
    expect(await status(p.scope(principal(12), 1, false))).toBe(404);
    expect(await status(p.scope(principal(12, 'admin'), 1, false))).toBe(403);
    expect(await p.scope(principal(12, 'admin'), 1, true)).toEqual({
      organization_id: 1,
      role: 'Admin',
      member: false,
    });
  });
});
