import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { UnderMount } from '../organizations/mount';

const CampaignsList = lazy(() => import('./CampaignsList').then((m) => ({ default: m.CampaignsList })));
const CampaignDetail = lazy(() => import('./CampaignDetail').then((m) => ({ default: m.CampaignDetail })));
const CampaignUsers = lazy(() => import('./CampaignUsers').then((m) => ({ default: m.CampaignUsers })));

/** Routes under the shell's /organization/* mount: campaigns. */
export const campaignsRoutes = (
  <Route element={<UnderMount segment="organization" />}>
    <Route path="campaigns" element={<CampaignsList />} />
    <Route path="campaigns/:campaignId" element={<CampaignDetail />} />
    <Route path="campaigns/:campaignId/users" element={<CampaignUsers />} />
  </Route>
);
