import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { UnderMount } from '../organizations/mount';

const GroupsList = lazy(() => import('./GroupsList').then((m) => ({ default: m.GroupsList })));
const GroupDetail = lazy(() => import('./GroupDetail').then((m) => ({ default: m.GroupDetail })));
const GroupMember = lazy(() => import('./GroupMember').then((m) => ({ default: m.GroupMember })));

/** Routes under the shell's /organization/* mount: groups. */
export const groupsRoutes = (
  <Route element={<UnderMount segment="organization" />}>
    <Route path="groups" element={<GroupsList />} />
    <Route path="groups/:groupId" element={<GroupDetail />} />
    <Route path="groups/:groupId/users/:userId" element={<GroupMember />} />
  </Route>
);
