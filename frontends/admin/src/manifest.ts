/**
 * What the admin remote publishes to the shell before its code loads (see frontends/shared/src/remote.ts):
 * it is mounted at /admin, and its menu entries are for staff only. Plain data: the build evaluates it.
 */
import type { RemoteManifestSource } from '@avatar-studio/shared';

export const manifest: RemoteManifestSource = {
  mounts: ['/admin'],
  navigation: [
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
