/**
 * The admin remote: exposed as 'admin/App' and mounted by the shell under "/admin".
 * Route paths here are relative to that mount point. Its menu entries and mounts are in manifest.ts. See frontends/shared/src/remote.ts.
 */
import { NotFound, PageLoader, registerTranslations } from '@avatar-studio/shared';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { en, es } from './i18n';
import { SetupBanner } from './setup/SetupBanner';

registerTranslations('admin', { en, es });

const PurchasesPage = lazy(() =>
  import('./purchases/PurchasesPage').then((m) => ({ default: m.PurchasesPage })),
);
const ProductsPage = lazy(() => import('./products/ProductsPage').then((m) => ({ default: m.ProductsPage })));
const ProductFormPage = lazy(() =>
  import('./products/ProductFormPage').then((m) => ({ default: m.ProductFormPage })),
);
const DiscountsPage = lazy(() =>
  import('./discounts/DiscountsPage').then((m) => ({ default: m.DiscountsPage })),
);
const AuditPage = lazy(() => import('./audit/AuditPage').then((m) => ({ default: m.AuditPage })));
const CustomersPage = lazy(() =>
  import('./customers/CustomersPage').then((m) => ({ default: m.CustomersPage })),
);
const EditCustomerPage = lazy(() =>
  import('./customers/EditCustomerForm').then((m) => ({ default: m.EditCustomerPage })),
);
const CustomerPage = lazy(() =>
  import('./customers/CustomerPage').then((m) => ({ default: m.CustomerPage })),
);
const IncomePage = lazy(() => import('./analytics/IncomePage').then((m) => ({ default: m.IncomePage })));
const CustomersAnalyticsPage = lazy(() =>
  import('./analytics/CustomersAnalyticsPage').then((m) => ({ default: m.CustomersAnalyticsPage })),
);
const ProductsAnalyticsPage = lazy(() =>
  import('./analytics/ProductsAnalyticsPage').then((m) => ({ default: m.ProductsAnalyticsPage })),
);
const ActivityPage = lazy(() =>
  import('./analytics/ActivityPage').then((m) => ({ default: m.ActivityPage })),
);
const DashboardPage = lazy(() =>
  import('./dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const StaffPage = lazy(() => import('./staff/StaffPage').then((m) => ({ default: m.StaffPage })));
const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const WorkflowsAdminPage = lazy(() =>
  import('./workflows/WorkflowsAdminPage').then((m) => ({ default: m.WorkflowsAdminPage })),
);
const WorkflowFormPage = lazy(() =>
  import('./workflows/WorkflowFormPage').then((m) => ({ default: m.WorkflowFormPage })),
);
const TutorialsAdminPage = lazy(() =>
  import('./tutorials/TutorialsAdminPage').then((m) => ({ default: m.TutorialsAdminPage })),
);

export default function App() {
  return (
    <Suspense fallback={<PageLoader />}>
      <SetupBanner />
      <Routes>
        {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
        <Route index element={<DashboardPage />} />
        <Route path="users" element={<CustomersPage />} />
        <Route path="users/:user_id" element={<CustomerPage />} />
        <Route path="users/:user_id/edit" element={<EditCustomerPage />} />
        <Route path="purchases" element={<PurchasesPage />} />
        <Route path="products" element={<ProductsPage />} />
        <Route path="products/:product_id/edit" element={<ProductFormPage />} />
        {/* The breadcrumb of the form links /admin/products/{id}: the same form. */}
        <Route path="products/:product_id" element={<ProductFormPage />} />
        <Route path="discounts" element={<DiscountsPage />} />
        <Route path="audit" element={<AuditPage />} />
        {/* The breadcrumb links the analytics section itself: its first screen. */}
        <Route path="analytics" element={<Navigate to="/admin/analytics/customers" replace />} />
        <Route path="analytics/income" element={<IncomePage />} />
        <Route path="analytics/customers" element={<CustomersAnalyticsPage />} />
        <Route path="analytics/products" element={<ProductsAnalyticsPage />} />
        <Route path="analytics/activity" element={<ActivityPage />} />
        <Route path="staff" element={<StaffPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="workflows" element={<WorkflowsAdminPage />} />
        <Route path="workflows/:workflow_id" element={<WorkflowFormPage />} />
        <Route path="tutorials" element={<TutorialsAdminPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
