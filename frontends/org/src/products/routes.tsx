import { lazy } from 'react';
import { Route, Navigate } from 'react-router-dom';
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
    {/* The breadcrumb links the path above the products: the organization's admin panel. */}
    <Route path="admin" element={<Navigate to="/organization/admin-panel" replace />} />
    <Route path="admin/products" element={<OrganizationProducts />} />
    <Route path="admin/products/:productId" element={<OrganizationProductForm />} />
  </Route>
);
