/**
 * What the org remote publishes to the shell before its code loads (see frontends/shared/src/remote.ts):
 * it is mounted at /organization and /organizations, and these menu entries. Plain data: the build evaluates it.
 */
import type { RemoteManifestSource } from '@avatar-studio/shared';

export const manifest: RemoteManifestSource = {
  mounts: ['/organization', '/organizations'],
  navigation: [
    {
      labelKey: 'org:nav.organizations',
      label: { en: 'Organizations', es: 'Organizaciones' },
      path: '/organizations',
      menu: 'organization',
      icon: 'building-community',
    },
    {
      labelKey: 'org:nav.invitations',
      label: { en: 'Invitations', es: 'Invitaciones' },
      path: '/organizations/invitations',
      menu: 'organization',
      icon: 'mail',
    },
    {
      labelKey: 'org:nav.adminPanel',
      label: { en: 'Admin panel', es: 'Panel de administración' },
      path: '/organization/admin-panel',
      menu: 'organization',
      permission: 'organization.adminPanel',
      requiresOrganization: true,
      icon: 'users',
    },
    {
      labelKey: 'org:nav.campaigns',
      label: { en: 'Campaigns', es: 'Campañas' },
      path: '/organization/campaigns',
      menu: 'organization',
      requiresOrganization: true,
      alwaysForStaff: true,
      icon: 'template',
    },
    {
      labelKey: 'org:nav.groups',
      label: { en: 'Groups', es: 'Grupos' },
      path: '/organization/groups',
      menu: 'organization',
      permission: 'groups.manage',
      requiresOrganization: true,
      icon: 'users',
    },
    {
      labelKey: 'org:nav.products',
      label: { en: 'Products', es: 'Productos' },
      path: '/organization/admin/products',
      menu: 'organization',
      permission: 'organization.edit',
      requiresOrganization: true,
      icon: 'settings',
    },
    // The spec's admin/organizations (staff): served by this remote at /organizations/all.
    {
      labelKey: 'org:nav.allOrganizations',
      label: { en: 'Organizations', es: 'Organizaciones' },
      path: '/organizations/all',
      menu: 'admin',
      permission: 'organization.listAll',
      icon: 'building-skyscraper',
    },
  ],
};
