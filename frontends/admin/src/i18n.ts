/** Texts of the admin remote (namespace "admin"). en and es must have the same keys (see App.test.tsx). */
import { analyticsEn, analyticsEs } from './analytics/translations';
import { auditEn, auditEs } from './audit/translations';
import { customersEn, customersEs, pagerEn, pagerEs } from './customers/translations';
import { dashboardEn, dashboardEs } from './dashboard/translations';
import { discountsEn, discountsEs } from './discounts/translations';
import { productsEn, productsEs } from './products/translations';
import { purchasesEn, purchasesEs } from './purchases/translations';
import { settingsEn, settingsEs } from './settings/translations';
import { setupEn, setupEs } from './setup/translations';
import { staffEn, staffEs } from './staff/translations';
import { tutorialsEn, tutorialsEs } from './tutorials/translations';
import { workflowsEn, workflowsEs } from './workflows/translations';

export const en = {
  nav: {},
  dashboard: dashboardEn,
  pager: pagerEn,
  customers: customersEn,
  purchases: purchasesEn,
  products: productsEn,
  discounts: discountsEn,
  audit: auditEn,
  analytics: analyticsEn,
  staff: staffEn,
  settings: settingsEn,
  workflows: workflowsEn,
  tutorials: tutorialsEn,
  setup: setupEn,
};

export const es: typeof en = {
  nav: {},
  dashboard: dashboardEs,
  pager: pagerEs,
  customers: customersEs,
  purchases: purchasesEs,
  products: productsEs,
  discounts: discountsEs,
  audit: auditEs,
  analytics: analyticsEs,
  staff: staffEs,
  settings: settingsEs,
  workflows: workflowsEs,
  tutorials: tutorialsEs,
  setup: setupEs,
};
