/**
 * Texts of the org remote (namespace "org"). en and es must have the same keys (see App.test.tsx).
 * Each area keeps its texts beside its screens and is added here under its own key.
 */
import { adminPanelEn, adminPanelEs } from './admin-panel/i18n';
import { organizationsEn, organizationsEs } from './organizations/i18n';

/** The namespace: screens call useTranslation(ORG_NS); App.tsx registers the resources. */
export const ORG_NS = 'org';

export const en = {
  nav: {
    organizations: 'Organizations',
    allOrganizations: 'Organizations',
    adminPanel: 'Admin panel',
  },
  organizations: organizationsEn,
  adminPanel: adminPanelEn,
};

export const es: typeof en = {
  nav: {
    organizations: 'Organizaciones',
    allOrganizations: 'Organizaciones',
    adminPanel: 'Panel de administración',
  },
  organizations: organizationsEs,
  adminPanel: adminPanelEs,
};
