import { isFeatureOn, type FeatureFlag } from '@avatar-studio/contracts/feature-flags';
import type { NavigationEntry } from '@avatar-studio/shared';
import { visibleEntries, type NavigationContext } from '../layout/navigation';

/** The app config with every feature on except those in `off`. */
function config(off: string[] = []): NavigationContext['config'] {
  const get = (key: string) => (off.includes(key) ? 'false' : 'true');
  return {
    get,
    flag: (key: string) => get(key) === 'true',
    feature: (flag: FeatureFlag) => isFeatureOn(flag, get),
  };
}

/** The organization menu as the org remote publishes it (frontends/org/src/manifest.ts), in short. */
const entries: NavigationEntry[] = [
  { labelKey: 'org:nav.organizations', path: '/organizations', menu: 'organization' },
  {
    labelKey: 'org:nav.campaigns',
    path: '/organization/campaigns',
    menu: 'organization',
    requiresOrganization: true,
    alwaysForStaff: true,
  },
  {
    labelKey: 'org:nav.groups',
    path: '/organization/groups',
    menu: 'organization',
    permission: 'groups.manage',
    requiresOrganization: true,
  },
];

const orgMenu = (context: NavigationContext) =>
  visibleEntries(entries, 'organization', context).map((e) => e.path);

describe('organization menu', () => {
  const member = { staffRole: null, orgRole: 'Member' as const };
  const staff = { staffRole: 'manager' as const, orgRole: null };

  it('shows campaigns to a member only inside an organization, and to staff always', () => {
    expect(orgMenu({ actor: member, config: config(), hasOrganization: true })).toContain(
      '/organization/campaigns',
    );
    expect(
      orgMenu({ actor: { staffRole: null, orgRole: null }, config: config(), hasOrganization: false }),
    ).not.toContain('/organization/campaigns');
    expect(orgMenu({ actor: staff, config: config(), hasOrganization: false })).toContain(
      '/organization/campaigns',
    );
    // Staff see no other organization-only entry without an organization.
    expect(orgMenu({ actor: staff, config: config(), hasOrganization: false })).not.toContain(
      '/organization/groups',
    );
  });

  it('has no entry at all while organizations_enabled is off, for staff too', () => {
    expect(
      orgMenu({ actor: staff, config: config(['organizations_enabled']), hasOrganization: true }),
    ).toEqual([]);
    expect(
      orgMenu({ actor: member, config: config(['organizations_enabled']), hasOrganization: true }),
    ).toEqual([]);
  });
});
