/**
 * The contract between the shell (host) and each remote (customer, admin, org).
 *
 * A remote is a Module Federation container named after its folder that exposes exactly one module, './App':
 *
 *   // frontends/<name>/src/App.tsx
 *   export default function App() {            // renders the remote's own <Routes>
 *     return <Routes><Route path="settings" element={<Settings />} />...</Routes>;
 *   }
 *   export const navigation: NavigationEntry[] = [...];   // the remote's menu entries
 *
 * - Routes are relative to where the shell mounts the remote: the shell renders `<Route path="/admin/*">`
 *   for admin, `/organization/*` and `/organizations/*` for org, and `/*` for customer, so the admin remote
 *   declares `path="staff"` for /admin/staff, and the customer remote declares `path="avatars/:avatar_id/*"`.
 *   The org remote is mounted at both prefixes: match on `useLocation().pathname` or declare routes
 *   under a pathless parent as it prefers; paths in `navigation` are absolute.
 * - The remote renders no providers: the shell already supplies Mantine (theme, light/dark), Notifications,
 *   TanStack Query, i18n, Session, AppConfig, Organization and the router. Everything those need comes from
 *   '@avatar-studio/shared' (a singleton shared with the host); never import its files by relative path.
 * - Translations: the remote calls registerTranslations('<name>', { en, es }) at module load and uses
 *   useTranslation('<name>'). Its tests call assertSameKeys(en, es).
 * - The shell builds the sidebar and header menus from `navigation` of every remote that loaded, filtered by
 *   `flag` (app config flag must be on), `permission` (useCan) and `staffOnly`.
 * - Standalone development: frontends/<name>/src/standalone.tsx mounts App with <StandaloneRemote>.
 */
import type { ComponentType } from 'react';
import type { Permission } from './permissions-core';

export type RemoteName = 'customer' | 'admin' | 'org';
export const REMOTE_NAMES: readonly RemoteName[] = ['customer', 'admin', 'org'];

/** Which menu of the shell an entry belongs to (000 §2: User menu, Tools, Admin, Organization, Analytics). */
export type NavigationMenu = 'sidebar' | 'user' | 'tools' | 'admin' | 'organization' | 'analytics';

export interface NavigationEntry {
  /** i18n key, "<namespace>:<key>" (e.g. 'customer:nav.avatars'). */
  labelKey: string;
  /** Absolute path (e.g. '/avatars', '/admin/staff'). */
  path: string;
  /** Shown only when the user has this permission (staff role or organization role). */
  permission?: Permission;
  /** Shown only when this app config flag is on (e.g. 'avatars_enabled'). */
  flag?: string;
  /** Shown only when an organization (not Personal) is current. */
  requiresOrganization?: boolean;
  /** Defaults to 'sidebar'. */
  menu?: NavigationMenu;
  /** A @tabler/icons-react icon. */
  icon?: ComponentType<{ size?: number | string; stroke?: number; 'aria-hidden'?: boolean }>;
  /** Lower first; entries without an order keep their array order after the ordered ones. */
  order?: number;
}

export interface RemoteModule {
  default: ComponentType;
  navigation?: NavigationEntry[];
  /**
   * customer only, optional: the public landing page the shell shows at / (and at /latam with language 'es'
   * when spanish_enabled) to signed-out visitors when app config landing_enabled is on.
   */
  Landing?: ComponentType<{ language: 'en' | 'es' }>;
}

/** GET /remotes.json, served by the backend: remote name -> remoteEntry.js URL, for the builds that exist. */
export interface RemotesManifest {
  remotes: Partial<Record<RemoteName, string>>;
}
