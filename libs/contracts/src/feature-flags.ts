/**
 * The app config feature flags, declared once: what each one gates on the server (API path prefixes, socket
 * events) and in the browser (screens, menu entries). The backend refuses a switched-off feature's calls with
 * 404 `feature_disabled` from this list alone, and the shell hides its menus and shows "switched off" on its
 * screens from it, so a feature built later is gated as soon as its routes exist under the declared prefixes.
 */

export const FEATURE_FLAGS = [
  'signup_enabled',
  'landing_enabled',
  'spanish_enabled',
  'campaigns_enabled',
  'hashtags_enabled',
  'topics_enabled',
  'chatwidget_enabled',
  'tutorials_enabled',
  'avatars_enabled',
  'super_fetch',
  'templates_enabled',
  'documents_enabled',
  'features_icons_enabled',
  'organizations_enabled',
  'search_enabled',
] as const;

export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export interface FeatureDeclaration {
  flag: FeatureFlag;
  /** The feature's name for people, in every language of the product. */
  name: { en: string; es: string };
  /** Its value when no admin has set it. */
  defaultOn: boolean;
  /** What switching it off does, in one sentence (the README's table is this text). */
  whenOff: string;
  /** Another flag that must be on too for this feature to be on (campaigns live inside organizations). */
  requires?: FeatureFlag;
  /**
   * API path prefixes answered 404 `feature_disabled` while off, whatever the method and whether or not a route
   * exists there yet. A segment ':x' matches any one segment.
   */
  api: readonly string[];
  /** Query parameters that make any API call one of this feature's while off (the organization scope). */
  apiQuery?: readonly string[];
  /** Socket events (either direction) neither emitted nor accepted while off. */
  events: readonly string[];
  /**
   * Signed-in screen path prefixes that show "this feature is switched off" while off; menu entries whose path
   * falls under them disappear. A segment ':x' matches any one segment.
   */
  screens: readonly string[];
}

export const FEATURES: readonly FeatureDeclaration[] = [
  {
    flag: 'landing_enabled',
    name: { en: 'Landing page', es: 'Página de inicio' },
    defaultOn: false,
    whenOff:
      'Signed-out visitors of / get the sign-in page instead of the landing page, and sign-in lives at /login rather than /auth/login.',
    api: [],
    events: [],
    screens: [],
  },
  {
    flag: 'spanish_enabled',
    name: { en: 'Spanish landing page', es: 'Página de inicio en español' },
    defaultOn: false,
    whenOff: 'The Spanish landing page at /latam is not offered (it also needs the landing page on).',
    requires: 'landing_enabled',
    api: [],
    events: [],
    screens: [],
  },
  {
    flag: 'signup_enabled',
    name: { en: 'Sign-up', es: 'Registro' },
    defaultOn: true,
    // Sign-up keeps its own answer (403 signup_disabled), the API contract's since the start.
    whenOff:
      'The sign-in page shows no create-account link, /signup leads to sign-in, and POST /api/auth/signup answers 403 signup_disabled.',
    api: [],
    events: [],
    screens: [],
  },
  {
    flag: 'organizations_enabled',
    name: { en: 'Organizations', es: 'Organizaciones' },
    defaultOn: true,
    whenOff:
      'Everyone works in Personal: the organization menus, switcher and pages are gone, and the organization API and any call with ?organization_id= answer 404 feature_disabled.',
    api: ['/api/organizations', '/api/user-organizations', '/api/organization-invitations'],
    apiQuery: ['organization_id'],
    events: [],
    screens: ['/organization', '/organizations'],
  },
  {
    flag: 'campaigns_enabled',
    name: { en: 'Campaigns', es: 'Campañas' },
    defaultOn: true,
    whenOff:
      'Campaigns and the groups that are given access to them disappear from organizations; their API answers 404 feature_disabled.',
    requires: 'organizations_enabled',
    // A document opened through a campaign belongs to campaigns too.
    api: ['/api/campaigns', '/api/groups', '/api/documents/:document_id/campaigns'],
    events: [],
    screens: ['/organization/campaigns', '/organization/groups', '/campaign'],
  },
  {
    flag: 'avatars_enabled',
    name: { en: 'Avatars', es: 'Avatares' },
    defaultOn: true,
    whenOff:
      'Avatars, their trainings and outputs disappear; their API answers 404 feature_disabled and their socket events stop.',
    api: ['/api/avatars', '/api/trainings', '/api/outputs'],
    events: ['output', 'thread_messages', 'training_progress'],
    screens: ['/avatars', '/templates/apply-avatar'],
  },
  {
    flag: 'super_fetch',
    name: { en: 'Super Fetch', es: 'Super Fetch' },
    defaultOn: true,
    whenOff: 'Super Fetch disappears; its API answers 404 feature_disabled and its socket events stop.',
    api: [
      '/api/super_fetch',
      '/api/super-fetch',
      '/api/avatars/super-fetch',
      '/api/users/resetDefaultAvatar',
    ],
    events: ['super_fetch_outputs'],
    screens: ['/super-fetch'],
  },
  {
    flag: 'templates_enabled',
    name: { en: 'Templates', es: 'Plantillas' },
    defaultOn: true,
    whenOff: 'Templates disappear from the menu and their pages; their API answers 404 feature_disabled.',
    api: ['/api/templates'],
    events: [],
    screens: ['/templates'],
  },
  {
    flag: 'documents_enabled',
    name: { en: 'Documents', es: 'Documentos' },
    defaultOn: true,
    whenOff:
      'Documents disappear, and so does sharing an answer into them; their API answers 404 feature_disabled and their socket events stop.',
    api: ['/api/documents'],
    events: ['document_output', 'document_avatar'],
    screens: ['/documents', '/campaign/:campaign_id/documents'],
  },
  {
    flag: 'topics_enabled',
    name: { en: 'Topics', es: 'Temas' },
    defaultOn: true,
    whenOff: 'Topics disappear; their API answers 404 feature_disabled.',
    api: ['/api/topics'],
    events: ['topics_output'],
    screens: ['/topics'],
  },
  {
    flag: 'hashtags_enabled',
    name: { en: 'Hashtags', es: 'Hashtags' },
    defaultOn: true,
    whenOff: 'Hashtags disappear; their API answers 404 feature_disabled.',
    api: ['/api/hashtags'],
    events: ['hashtags_output'],
    screens: ['/hashtags'],
  },
  {
    flag: 'chatwidget_enabled',
    name: { en: 'Chat widget', es: 'Widget de chat' },
    defaultOn: true,
    whenOff:
      'The chat widget generator disappears and embedded widgets stop answering; their API answers 404 feature_disabled.',
    api: ['/api/chatwidget', '/api/chat-widget', '/api/widget', '/api/widgets'],
    events: [],
    screens: ['/chat-widget-generator'],
  },
  {
    flag: 'tutorials_enabled',
    name: { en: 'Tutorials', es: 'Tutoriales' },
    defaultOn: true,
    whenOff: 'Tutorials disappear; their API answers 404 feature_disabled.',
    api: ['/api/tutorials'],
    events: [],
    screens: ['/tutorials'],
  },
  {
    flag: 'features_icons_enabled',
    name: { en: 'Feature icons', es: 'Íconos de características' },
    defaultOn: true,
    whenOff: "The landing page's feature list is shown without its icons.",
    api: [],
    events: [],
    screens: [],
  },
  {
    flag: 'search_enabled',
    name: { en: 'Web search in chats', es: 'Búsqueda web en chats' },
    defaultOn: false,
    whenOff: 'Chats offer no web search switch, and a message asking for web search is answered without it.',
    api: [],
    events: [],
    screens: [],
  },
];

export const FEATURE_BY_FLAG: Readonly<Record<FeatureFlag, FeatureDeclaration>> = Object.fromEntries(
  FEATURES.map((f) => [f.flag, f]),
) as Record<FeatureFlag, FeatureDeclaration>;

export function isFeatureFlag(value: unknown): value is FeatureFlag {
  return typeof value === 'string' && (FEATURE_FLAGS as readonly string[]).includes(value);
}

/** How an app config value reads as a flag: 'true' and '1' are on; anything else is off. */
export function flagValueIsOn(value: string | null | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === 'true' || v === '1';
}

/** Reads one flag's raw value (null or undefined when unset: the declared default applies). */
export type FlagReader = (flag: FeatureFlag) => string | null | undefined;

/** On when its own flag is on (or unset and on by default) and so is the flag it requires. */
export function isFeatureOn(flag: FeatureFlag, read: FlagReader): boolean {
  const feature = FEATURE_BY_FLAG[flag];
  const raw = read(flag);
  const own = raw === null || raw === undefined ? feature.defaultOn : flagValueIsOn(raw);
  return own && (!feature.requires || isFeatureOn(feature.requires, read));
}

/** Whether `path` is `prefix` or below it, segment by segment (':x' in the prefix matches any one segment). */
export function pathUnder(path: string, prefix: string): boolean {
  const parts = path.split('/').filter(Boolean);
  const want = prefix.split('/').filter(Boolean);
  if (parts.length < want.length) return false;
  return want.every((segment, i) => segment.startsWith(':') || segment === parts[i]);
}

/**
 * The switched-off feature an API call belongs to (by path, then by query parameter), or null. Every HTTP call
 * asks, and most features are on: the flags are read first, so a call's path is matched only against the
 * features that are off.
 */
export function disabledFeatureOfApiCall(
  path: string,
  query: Iterable<string>,
  read: FlagReader,
): FeatureDeclaration | null {
  // `query` may be an iterator, read once: its names are collected the first time an off feature needs them.
  let names: Set<string> | null = null;
  for (const feature of FEATURES) {
    if (isFeatureOn(feature.flag, read)) continue;
    if (feature.api.some((prefix) => pathUnder(path, prefix))) return feature;
    if (!feature.apiQuery?.length) continue;
    const seen = (names ??= new Set(query));
    if (feature.apiQuery.some((name) => seen.has(name))) return feature;
  }
  return null;
}

/** The switched-off feature a signed-in screen belongs to, or null. */
export function disabledFeatureOfScreen(pathname: string, read: FlagReader): FeatureDeclaration | null {
  for (const feature of FEATURES) {
    if (feature.screens.some((prefix) => pathUnder(pathname, prefix)) && !isFeatureOn(feature.flag, read))
      return feature;
  }
  return null;
}

/** The switched-off feature a socket event belongs to, or null. */
export function disabledFeatureOfEvent(event: string, read: FlagReader): FeatureDeclaration | null {
  for (const feature of FEATURES) {
    if (feature.events.includes(event) && !isFeatureOn(feature.flag, read)) return feature;
  }
  return null;
}

/** The sentence of the API's 404 `feature_disabled` answer. */
export function featureDisabledMessage(feature: FeatureDeclaration): string {
  return `The ${feature.name.en} feature is switched off in this app. A staff admin can switch it on in Admin → Settings.`;
}
