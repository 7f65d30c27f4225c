/** Roles and permissions as data: the backend's guard and services enforce them, the screens decide what to show. */
export const STAFF_ROLES = ['admin', 'manager'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ORG_ROLES = ['Admin', 'Manager', 'Member'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** user_type_id of each organization role. */
export const ORG_ROLE_IDS: Record<OrgRole, number> = { Admin: 1, Manager: 2, Member: 3 };
export const ORG_ROLE_BY_ID: Record<number, OrgRole> = { 1: 'Admin', 2: 'Manager', 3: 'Member' };

/** Higher rank includes the rights of the lower ones. */
export const ORG_ROLE_RANK: Record<OrgRole, number> = { Admin: 3, Manager: 2, Member: 1 };
export const STAFF_ROLE_RANK: Record<StaffRole, number> = { admin: 2, manager: 1 };

export interface Actor {
  staffRole: StaffRole | null;
  orgRole: OrgRole | null;
}

/** Who may do what: a staff role (at least), an organization role (at least), or either. */
export const PERMISSIONS = {
  'staff.manage': { staff: 'admin' },
  'appconfig.edit': { staff: 'admin' },
  'backoffice.view': { staff: 'manager' },
  // The money screens: managers read purchases, products and discounts; admins change purchases and invoices.
  'billing.view': { staff: 'manager' },
  'billing.edit': { staff: 'admin' },
  'audit.view': { staff: 'admin' },
  // Customers: managers look them up; admins create them, give and revoke access and use the password tools.
  'customers.view': { staff: 'manager' },
  'customers.manage': { staff: 'admin' },
  'analytics.view': { staff: 'manager' },
  'avatar.delete': { staff: 'admin' },
  'avatar.makePublic': { staff: 'admin' },
  'organization.create': { staff: 'manager' },
  'organization.listAll': { staff: 'manager' },
  'organization.edit': { staff: 'admin', org: 'Admin' },
  'organization.delete': { staff: 'admin', org: 'Admin' },
  'organization.adminPanel': { staff: 'admin', org: 'Manager' },
  'organization.users.add': { staff: 'admin', org: 'Admin' },
  'organization.users.edit': { staff: 'admin', org: 'Admin' },
  'organization.users.remove': { staff: 'admin', org: 'Admin' },
  'campaigns.manage': { staff: 'manager', org: 'Manager' },
  'campaigns.viewAll': { staff: 'manager', org: 'Admin' },
  'groups.manage': { org: 'Manager' },
} as const satisfies Record<string, { staff?: StaffRole; org?: OrgRole }>;

export type Permission = keyof typeof PERMISSIONS;

export function hasStaffRole(actual: StaffRole | null, needed: StaffRole): boolean {
  return actual !== null && STAFF_ROLE_RANK[actual] >= STAFF_ROLE_RANK[needed];
}

export function hasOrgRole(actual: OrgRole | null, needed: OrgRole): boolean {
  return actual !== null && ORG_ROLE_RANK[actual] >= ORG_ROLE_RANK[needed];
}

export function can(actor: Actor, permission: Permission): boolean {
  const rule: { staff?: StaffRole; org?: OrgRole } = PERMISSIONS[permission];
  return (
    (rule.staff !== undefined && hasStaffRole(actor.staffRole, rule.staff)) ||
    (rule.org !== undefined && hasOrgRole(actor.orgRole, rule.org))
  );
}
