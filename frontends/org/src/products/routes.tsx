import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { UnderMount } from '../organizations/mount';

const OrganizationProducts = lazy(() =>
  import('./OrganizationProducts').then((m) => ({ default: m.OrganizationProducts })),
);
const OrganizationProductForm = lazy(() =>
  import('./OrganizationProductForm').then((m) => ({ default: m.OrganizationProductForm })),
);

/** Routes under the shell's /organization/* mount: the organization's products. */
export const productsRoutes = (
  <Route element={<UnderMount segment="organization" />}>
    <Route path="admin/products" element={<OrganizationProducts />} />
    <Route path="admin/products/:productId" element={<OrganizationProductForm />} />
  </Route>
);
