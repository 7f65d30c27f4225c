/** Texts of the admin remote (namespace "admin"). en and es must have the same keys (see App.test.tsx). */
import { settingsEn, settingsEs } from './settings/translations';
import { staffEn, staffEs } from './staff/translations';
import { tutorialsEn, tutorialsEs } from './tutorials/translations';
import { workflowsEn, workflowsEs } from './workflows/translations';

export const en = {
  nav: {},
  staff: staffEn,
  settings: settingsEn,
  workflows: workflowsEn,
  tutorials: tutorialsEn,
};

export const es: typeof en = {
  nav: {},
  staff: staffEs,
  settings: settingsEs,
  workflows: workflowsEs,
  tutorials: tutorialsEs,
};
