/**
 * The contract between the shell (host) and each remote (customer, admin, org).
 *
 * A remote is a Module Federation container named after its folder that exposes exactly one module, './App',
 * and publishes a manifest the shell reads before (and without) loading any of the remote's code:
 *
 *   // frontends/<name>/src/manifest.ts: plain data, type-only imports (the build evaluates it)
 *   export const manifest: RemoteManifestSource = {
 *     mounts: ['/admin'],                            // where the shell mounts the remote
 *     navigation: [{ labelKey: 'admin:staff.nav', label: { en: 'Staff', es: 'Personal' }, path: '/admin/staff',
 *                    menu: 'admin', permission: 'staff.manage', icon: 'user-shield' }],
 *   };
 *   // frontends/<name>/src/App.tsx
 *   export default function App() {            // renders the remote's own <Routes>
 *     return <Routes><Route path="settings" element={<Settings />} />...</Routes>;
 *   }
 *
 * - The build writes the manifest to dist/remote-manifest.json; the backend merges every built remote's into
 *   GET /remotes.json. The shell draws the sidebar and menus from it and loads a remote's code only when one of
 *   its routes is opened, so the sign-in page downloads no remote and a customer never downloads admin code.
 * - Routes are relative to where the shell mounts the remote: for a mount '/admin' the shell renders
 *   `<Route path="/admin/*">`, for '/' it renders the catch-all `<Route path="*">` (more specific mounts win),
 *   so the admin remote declares `path="staff"` for /admin/staff. A remote with two mounts (org:
 *   /organization and /organizations) matches on `useLocation().pathname` or declares routes under a pathless
 *   parent as it prefers; paths in `navigation` are absolute.
 * - The remote renders no providers: the shell already supplies Mantine (theme, light/dark), Notifications,
 *   TanStack Query, i18n, Session, AppConfig, Organization and the router. Everything those need comes from
 *   '@avatar-studio/shared' (a singleton shared with the host); never import its files by relative path.
 * - Translations: the remote calls registerTranslations('<name>', { en, es }) at module load and uses
 *   useTranslation('<name>'). Its tests call assertSameKeys(en, es). A menu entry's `label` repeats the text of
 *   its `labelKey` (a test of the remote checks they agree): the shell shows it before the remote has loaded.
 * - The shell hides menu entries under a switched-off feature's screens (the feature flags declaration in the
 *   contracts package), and filters them by `flag`, `permission` (useCan) and `requiresOrganization`; a
 *   switched-off feature's screens show "this feature is switched off" before the remote is asked.
 * - Standalone development: frontends/<name>/src/standalone.tsx mounts App with <StandaloneRemote>.
 */
import type { ComponentType } from 'react';
import type { Permission } from './permissions-core';

export type RemoteName = 'customer' | 'admin' | 'org';
export const REMOTE_NAMES: readonly RemoteName[] = ['customer', 'admin', 'org'];

/**
 * The window global a remote's remoteEntry.js sets to its container; the build names it the same way
 * (frontends/shared/build/webpack.base.js, `library`).
 */
export function remoteGlobalName(name: RemoteName): string {
  return `avatar_studio_${name}`;
}

/** Which menu of the shell an entry belongs to (User menu, Tools, Admin, Organization, Analytics). */
export type NavigationMenu = 'sidebar' | 'user' | 'tools' | 'admin' | 'organization' | 'analytics';

export interface NavigationEntry {
  /** i18n key, "<namespace>:<key>" (e.g. 'customer:nav.avatars'). */
  labelKey: string;
  /** Absolute path (e.g. '/avatars', '/admin/staff'). */
  path: string;
  /** Shown only when the user has this permission (staff role or organization role). */
  permission?: Permission;
  /**
   * Shown only when this app config flag is on. Rarely needed: an entry whose path is under a feature's declared
   * screens (libs/contracts/src/feature-flags.ts) already disappears when that feature is switched off.
   */
  flag?: string;
  /** Shown only when an organization (not Personal) is current. */
  requiresOrganization?: boolean;
  /** Staff see it even when requiresOrganization is not met (the campaign menu is always theirs). */
  alwaysForStaff?: boolean;
  /** Defaults to 'sidebar'. */
  menu?: NavigationMenu;
  /** One of the shell's menu icons, by name. */
  icon?: NavigationIcon;
  /** Lower first; entries without an order keep their array order after the ordered ones. */
  order?: number;
}

/** The icons a menu entry may name; the shell maps each to a @tabler/icons-react icon. */
export const NAVIGATION_ICONS = [
  'messages',
  'route',
  'template',
  'user-circle',
  'settings',
  'user-shield',
  'building-community',
  'building-skyscraper',
  'users',
  'mail',
  'receipt',
  'package',
  'discount',
  'history',
  'dashboard',
  'file-text',
  'bulb',
  'hash',
  'video',
  'message-chatbot',
  'rocket',
] as const;
export type NavigationIcon = (typeof NAVIGATION_ICONS)[number];

/** A menu entry as a remote publishes it: with its label in every language, shown before the remote loads. */
export interface PublishedNavigationEntry extends NavigationEntry {
  label: { en: string; es: string };
}

/** frontends/<name>/src/manifest.ts: where the remote mounts and its menu entries. */
export interface RemoteManifestSource {
  /** Absolute path prefixes the remote owns ('/' = every path no other remote owns). */
  mounts: string[];
  navigation: PublishedNavigationEntry[];
  /**
   * 'staff': mounted for staff accounts only; for anyone else its paths are not found and its code is never
   * downloaded. Absent: everyone signed in.
   */
  audience?: 'staff';
}

export interface RemoteModule {
  default: ComponentType;
}

/** One built remote in /remotes.json: its remoteEntry.js URL and what its manifest publishes. */
export interface RemoteDescriptor extends RemoteManifestSource {
  entry: string;
}

/** GET /remotes.json, served by the backend: the remotes whose build exists. */
export interface RemotesManifest {
  remotes: Partial<Record<RemoteName, RemoteDescriptor>>;
}
