/**
 * Texts of the org remote (namespace "org"). en and es must have the same keys (see App.test.tsx).
 * Each area keeps its texts beside its screens and is added here under its own key.
 */
import { adminPanelEn, adminPanelEs } from './admin-panel/i18n';
import { campaignsEn, campaignsEs } from './campaigns/i18n';
import { groupsEn, groupsEs } from './groups/i18n';
import { productsEn, productsEs } from './products/i18n';
import { invitationsEn, invitationsEs } from './invitations/i18n';
import { organizationsEn, organizationsEs } from './organizations/i18n';

/** The namespace: screens call useTranslation(ORG_NS); App.tsx registers the resources. */
export const ORG_NS = 'org';

export const en = {
  nav: {
    organizations: 'Organizations',
    allOrganizations: 'Organizations',
    adminPanel: 'Admin panel',
    invitations: 'Invitations',
    campaigns: 'Campaigns',
    groups: 'Groups',
    products: 'Products',
  },
  organizations: organizationsEn,
  adminPanel: adminPanelEn,
  invitations: invitationsEn,
  campaigns: campaignsEn,
  groups: groupsEn,
  products: productsEn,
};

export const es: typeof en = {
  nav: {
    organizations: 'Organizaciones',
    allOrganizations: 'Organizaciones',
    adminPanel: 'Panel de administración',
    invitations: 'Invitaciones',
    campaigns: 'Campañas',
    groups: 'Grupos',
    products: 'Productos',
  },
  organizations: organizationsEs,
  adminPanel: adminPanelEs,
  invitations: invitationsEs,
  campaigns: campaignsEs,
  groups: groupsEs,
  products: productsEs,
};
