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

/** What a rule grants by: a staff role (at least), an organization role (at least), or being the resource's user. */
export interface PermissionRule {
  staff?: StaffRole;
  org?: OrgRole;
  /** The user the resource belongs to (their own membership, their own account) may too. */
  self?: true;
}

/**
 * Who may do what. The backend's access policy (AccessPolicy) answers every check from this table, and the
 * screens read the same table to decide what to show.
 */
export const PERMISSIONS = {
  'staff.manage': { staff: 'admin' },
  'appconfig.edit': { staff: 'admin' },
  'audit.view': { staff: 'admin' },
  'backoffice.view': { staff: 'manager' },
  /** Staff tools on accounts: look a user up by email or phone, send or hand over a password reset link. */
  'users.support': { staff: 'manager' },
  /** A reset link for a staff account takes the account over: admins only. */
  'users.staffAccountResetLink': { staff: 'admin' },
  /** A personal API key that carries its owner's staff role. */
  'apiKey.staffUse': { staff: 'manager' },
  /** Two-factor sign-in is set up (and turned off) by staff for their own account. */
  'twoFactor.manage': { staff: 'manager' },
  'avatar.delete': { staff: 'admin' },
  'avatar.makePublic': { staff: 'admin' },
  'organization.create': { staff: 'manager' },
  'organization.listAll': { staff: 'manager' },
  'organization.view': { staff: 'manager', org: 'Member' },
  /** The members list and the masked keys: the organization's Managers and Admins, and any staff. */
  'organization.users.view': { staff: 'manager', org: 'Manager' },
  /** One membership: as above, and the member themself. */
  'organization.membership.view': { staff: 'manager', org: 'Manager', self: true },
  'organization.edit': { staff: 'admin', org: 'Admin' },
  'organization.delete': { staff: 'admin', org: 'Admin' },
  'organization.adminPanel': { staff: 'admin', org: 'Manager' },
  'organization.users.add': { staff: 'admin', org: 'Admin' },
  'organization.users.edit': { staff: 'admin', org: 'Admin' },
  /** Removing a member; a member may also leave. */
  'organization.users.remove': { staff: 'admin', org: 'Admin', self: true },
  'campaigns.manage': { staff: 'manager', org: 'Manager' },
  'campaigns.viewAll': { staff: 'manager', org: 'Admin' },
  'groups.manage': { org: 'Manager' },
  /** Generating without buying words (the reservation holds nothing and is never refused for lack of words). */
  'words.unmetered': { staff: 'manager' },
  'words.grant': { staff: 'admin' },
  /** Every template with its prompt, whoever owns it and whatever Show Prompt says (the all-templates list). */
  'template.viewAll': { staff: 'manager' },
  'template.makePublic': { staff: 'admin' },
  /** Editing or deleting a template: its owner or a staff admin (and anyone who sees one marked Editable). */
  'template.edit': { staff: 'admin', self: true },
  /** Changing a template's Editable and Show Prompt settings: its owner or any staff. */
  'template.editSettings': { staff: 'manager', self: true },
  /** Creating, changing and deleting workflows (everyone signed in may read and run them). */
  'workflow.manage': { staff: 'manager' },
} as const satisfies Record<string, PermissionRule>;

export type Permission = keyof typeof PERMISSIONS;

export function hasStaffRole(actual: StaffRole | null, needed: StaffRole): boolean {
  return actual !== null && STAFF_ROLE_RANK[actual] >= STAFF_ROLE_RANK[needed];
}

export function hasOrgRole(actual: OrgRole | null, needed: OrgRole): boolean {
  return actual !== null && ORG_ROLE_RANK[actual] >= ORG_ROLE_RANK[needed];
}

/** `self`: the actor is the user the resource belongs to. */
export function can(actor: Actor & { self?: boolean }, permission: Permission): boolean {
  const rule: PermissionRule = PERMISSIONS[permission];
  return (
    (rule.staff !== undefined && hasStaffRole(actor.staffRole, rule.staff)) ||
    (rule.org !== undefined && hasOrgRole(actor.orgRole, rule.org)) ||
    (rule.self === true && actor.self === true)
  );
}
