import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { UnderMount } from '../organizations/mount';

const AdminPanel = lazy(() => import('./AdminPanel').then((m) => ({ default: m.AdminPanel })));
const UserDetail = lazy(() => import('./UserDetail').then((m) => ({ default: m.UserDetail })));
const UserForm = lazy(() => import('./UserForm').then((m) => ({ default: m.UserForm })));

/** Routes under the shell's /organization/* mount: the organization's user administration. */
export const adminPanelRoutes = (
  <Route element={<UnderMount segment="organization" />}>
    <Route path="admin-panel" element={<AdminPanel />} />
    <Route path="admin-panel/users/:userId" element={<UserDetail />} />
    <Route path="admin-panel/:userId" element={<UserForm />} />
  </Route>
);
