/**
 * What the admin remote publishes to the shell before its code loads (see frontends/shared/src/remote.ts):
 * it is mounted at /admin for staff accounts only (a customer never downloads its code), and its menu entries
 * name the permissions they need. Plain data: the build evaluates it.
 */
import type { RemoteManifestSource } from '@avatar-studio/shared';

export const manifest: RemoteManifestSource = {
  mounts: ['/admin'],
  audience: 'staff',
  navigation: [
    {
      labelKey: 'admin:dashboard.nav',
      label: { en: 'Dashboard', es: 'Panel' },
      path: '/admin',
      menu: 'admin',
      permission: 'analytics.view',
      icon: 'dashboard',
    },
    {
      labelKey: 'admin:customers.nav',
      label: { en: 'Users', es: 'Usuarios' },
      path: '/admin/users',
      menu: 'admin',
      permission: 'customers.view',
      icon: 'users',
    },
    {
      labelKey: 'admin:purchases.nav',
      label: { en: 'Purchases', es: 'Compras' },
      path: '/admin/purchases',
      menu: 'admin',
      permission: 'billing.view',
      icon: 'receipt',
    },
    {
      labelKey: 'admin:products.nav',
      label: { en: 'Products', es: 'Productos' },
      path: '/admin/products',
      menu: 'admin',
      permission: 'billing.view',
      icon: 'package',
    },
    {
      labelKey: 'admin:discounts.nav',
      label: { en: 'Discounts', es: 'Descuentos' },
      path: '/admin/discounts',
      menu: 'admin',
      permission: 'billing.view',
      icon: 'discount',
    },
    {
      labelKey: 'admin:staff.nav',
      label: { en: 'Staff', es: 'Personal' },
      path: '/admin/staff',
      menu: 'admin',
      permission: 'staff.manage',
      icon: 'user-shield',
    },
    {
      labelKey: 'admin:settings.nav',
      label: { en: 'Settings', es: 'Configuración' },
      path: '/admin/settings',
      menu: 'admin',
      permission: 'appconfig.edit',
      icon: 'settings',
    },
    {
      labelKey: 'admin:workflows.nav',
      label: { en: 'Workflows', es: 'Flujos de trabajo' },
      path: '/admin/workflows',
      menu: 'admin',
      // Workflows are authored by staff admins and managers.
      permission: 'backoffice.view',
      icon: 'route',
    },
    {
      labelKey: 'admin:audit.nav',
      label: { en: 'Audit', es: 'Auditoría' },
      path: '/admin/audit',
      menu: 'admin',
      permission: 'audit.view',
      icon: 'history',
    },
    {
      labelKey: 'admin:analytics.nav.customers',
      label: { en: 'Customers', es: 'Clientes' },
      path: '/admin/analytics/customers',
      menu: 'analytics',
      permission: 'analytics.view',
      icon: 'users',
    },
    {
      labelKey: 'admin:analytics.nav.income',
      label: { en: 'Income', es: 'Ingresos' },
      path: '/admin/analytics/income',
      menu: 'analytics',
      permission: 'analytics.view',
      icon: 'receipt',
    },
    {
      labelKey: 'admin:analytics.nav.products',
      label: { en: 'Products', es: 'Productos' },
      path: '/admin/analytics/products',
      menu: 'analytics',
      permission: 'analytics.view',
      icon: 'package',
    },
    {
      labelKey: 'admin:analytics.nav.activity',
      label: { en: 'Activity', es: 'Actividad' },
      path: '/admin/analytics/activity',
      menu: 'analytics',
      permission: 'analytics.view',
      icon: 'dashboard',
    },
    {
      labelKey: 'admin:tutorials.nav',
      label: { en: 'Tutorials', es: 'Tutoriales' },
      path: '/admin/tutorials',
      menu: 'admin',
      // Tutorials are managed by staff admins and managers.
      permission: 'backoffice.view',
      icon: 'video',
    },
  ],
};
