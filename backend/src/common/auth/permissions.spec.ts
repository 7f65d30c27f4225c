import { can, hasOrgRole } from './permissions';

describe('permissions', () => {
  it('lets a higher organization role do what a lower one can', () => {
    expect(hasOrgRole('Admin', 'Manager')).toBe(true);
    expect(hasOrgRole('Member', 'Manager')).toBe(false);
    expect(hasOrgRole(null, 'Member')).toBe(false);
  });

  it('follows the role table of the organization spec', () => {
    const member = { staffRole: null, orgRole: 'Member' as const };
    const manager = { staffRole: null, orgRole: 'Manager' as const };
    const admin = { staffRole: null, orgRole: 'Admin' as const };
    expect(can(member, 'organization.adminPanel')).toBe(false);
    expect(can(manager, 'organization.adminPanel')).toBe(true);
    expect(can(manager, 'organization.users.add')).toBe(false);
    expect(can(admin, 'organization.users.add')).toBe(true);
    expect(can(admin, 'organization.create')).toBe(false);
    expect(can({ staffRole: 'manager', orgRole: null }, 'organization.create')).toBe(true);
    expect(can({ staffRole: 'manager', orgRole: null }, 'appconfig.edit')).toBe(false);
    expect(can({ staffRole: 'admin', orgRole: null }, 'appconfig.edit')).toBe(true);
  });
});
