/** Texts of the customer remote (namespace "customer"). en and es must have the same keys (see App.test.tsx). */
import { outOfCreditsEn, outOfCreditsEs } from './access/translations';
import { billingEn, billingEs } from './billing/translations';
import { chatWidgetEn, chatWidgetEs } from './chat-widget/translations';
import { avatarsEn, avatarsEs } from './avatars/translations';
import { conversationsEn, conversationsEs } from './conversations/translations';
import { documentsEn, documentsEs } from './documents/translations';
import { ideasEn, ideasEs } from './ideas/translations';
import { superFetchEn, superFetchEs } from './super-fetch/translations';
import { tutorialsEn, tutorialsEs } from './tutorials/translations';
import { profileEn, profileEs } from './profile/translations';
import { settingsEn, settingsEs } from './settings/translations';
import { templatesEn, templatesEs } from './templates/translations';
import { welcomeEn, welcomeEs } from './welcome/translations';
import { workflowsEn, workflowsEs } from './workflows/translations';

export const en = {
  nav: {},
  outOfCredits: outOfCreditsEn,
  settings: settingsEn,
  profile: profileEn,
  conversations: conversationsEn,
  templates: templatesEn,
  workflows: workflowsEn,
  documents: documentsEn,
  ideas: ideasEn,
  superFetch: superFetchEn,
  tutorials: tutorialsEn,
  billing: billingEn,
  avatars: avatarsEn,
  welcome: welcomeEn,
  chatWidget: chatWidgetEn,
};

export const es: typeof en = {
  nav: {},
  outOfCredits: outOfCreditsEs,
  settings: settingsEs,
  profile: profileEs,
  conversations: conversationsEs,
  templates: templatesEs,
  workflows: workflowsEs,
  documents: documentsEs,
  ideas: ideasEs,
  superFetch: superFetchEs,
  tutorials: tutorialsEs,
  billing: billingEs,
  avatars: avatarsEs,
  welcome: welcomeEs,
  chatWidget: chatWidgetEs,
};
