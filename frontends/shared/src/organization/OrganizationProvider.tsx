import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  isReservedSlug,
  ORGANIZATION_SLUG_MAX_LENGTH,
  ORGANIZATION_SLUG_PATTERN,
  RESERVED_PATH_SEGMENTS as RESERVED_ROUTE_SEGMENTS,
} from '@avatar-studio/contracts/routes';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, unwrap } from '../api/client';
import type { Membership, Organization } from '../api/contracts';
import { useAppConfig } from '../appconfig/AppConfigProvider';
import { notifyError } from '../notify';
import { ORG_ROLE_BY_ID, type OrgRole } from '../permissions-core';
import { useSession } from '../session/SessionProvider';
import { sessionStore, STORAGE_KEYS, tabStorage } from '../session/store';

export interface CurrentOrganization extends Omit<Organization, 'welcome_video'> {
  welcome_video?: string | null;
  /** The caller's role in it (null for staff looking at an organization they do not belong to). */
  role: OrgRole | null;
}

export interface OrganizationState {
  /** null = Personal. */
  current: CurrentOrganization | null;
  memberships: Membership[];
  /** Switches scope (null = Personal), remembers it on this device and refetches scoped data. */
  choose(id: number | null): void;
  /** True until the choice for a signed-in user is made. */
  resolving: boolean;
  /**
   * An organization a link (`?org=`, a domain) pointed a staff member to without them being a member: not
   * entered until they confirm it (the server refuses its scope without the confirmation too).
   */
  pendingStaffScope: CurrentOrganization | null;
  /** Enters the pending organization as staff. */
  confirmStaffScope(): void;
  /** Stays where the staff member is; the pending organization is forgotten. */
  dismissStaffScope(): void;
}

export const MEMBERSHIPS_QUERY_KEY = ['organizations', 'mine'] as const;
/** Stored instead of an id when the user explicitly picked Personal. */
const PERSONAL = 'personal';
/** Query keys that do not depend on the organization and survive a switch. */
const UNSCOPED_KEYS = new Set(['appconfig', 'session']);

const OrganizationContext = createContext<OrganizationState | null>(null);

export function membershipRole(membership: Membership): OrgRole | null {
  return membership.user_type?.name ?? ORG_ROLE_BY_ID[membership.user_type?.user_type_id] ?? null;
}

function toCurrent(org: Organization | Membership, memberships: Membership[]): CurrentOrganization {
  const membership = memberships.find((m) => m.organization_id === org.organization_id);
  const { organization_id, name, slug, tagline, thumbnail, domain } = org;
  const welcome_video = 'welcome_video' in org ? org.welcome_video : undefined;
  return {
    organization_id,
    name,
    slug,
    tagline,
    thumbnail,
    domain,
    welcome_video,
    role: membership ? membershipRole(membership) : null,
  };
}

/** The stored choice: a number, 'personal', or undefined when nothing was stored. */
export function readStoredOrganization(): number | 'personal' | undefined {
  const raw = tabStorage().getItem(STORAGE_KEYS.organizationId);
  if (raw === null) return undefined;
  if (raw === PERSONAL) return PERSONAL;
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

export interface OrganizationChoiceInput {
  /** The organization matched by slug or domain, if any. */
  matched: Organization | Membership | null;
  stored: number | 'personal' | undefined;
  defaultOrganization: number | null | undefined;
  memberships: Membership[];
  /** Staff may act in any organization (they see all organizations). */
  isStaff: boolean;
}

/** Organization choice order: slug/domain match, stored id, the user's default, else Personal (null). */
export function chooseOrganization(input: OrganizationChoiceInput): CurrentOrganization | null {
  const { matched, stored, defaultOrganization, memberships, isStaff } = input;
  const member = (id: number) => memberships.find((m) => m.organization_id === id);
  if (matched && (member(matched.organization_id) || isStaff)) return toCurrent(matched, memberships);
  if (stored === PERSONAL) return null;
  if (typeof stored === 'number') {
    const m = member(stored);
    if (m) return toCurrent(m, memberships);
  }
  if (defaultOrganization) {
    const m = member(defaultOrganization);
    if (m) return toCurrent(m, memberships);
  }
  return null;
}

/** First path segments that are the app's own routes (or the API's), never an organization's slug. */
export const RESERVED_PATH_SEGMENTS: ReadonlySet<string> = new Set(RESERVED_ROUTE_SEGMENTS);

/**
 * The organization slug leading the path (`/acme/conversations` → `acme`), when the first segment could be one:
 * a lowercase slug that is not one of the app's own routes. Whether it is an organization the lookup decides.
 */
export function pathOrganizationSlug(pathname: string): string | null {
  const first = pathname.split('/')[1] ?? '';
  if (!ORGANIZATION_SLUG_PATTERN.test(first) || first.length > ORGANIZATION_SLUG_MAX_LENGTH) return null;
  return isReservedSlug(first) ? null : first;
}

/** The path without its leading organization slug (`/acme/conversations` → `/conversations`). */
export function withoutOrganizationSlug(pathname: string, slug: string): string {
  return pathname.slice(slug.length + 1) || '/';
}

/** The slug in the URL (?org=slug), or the host name when it is not the app's own domain. */
export function organizationHint(
  location: Pick<Location, 'search' | 'hostname'>,
  appDomain: string | null,
): { slug: string } | { domain: string } | null {
  const slug = new URLSearchParams(location.search).get('org')?.trim();
  if (slug) return { slug };
  const host = location.hostname.toLowerCase();
  const own = appDomain
    ?.replace(/^https?:\/\//, '')
    .replace(/[:/].*$/, '')
    .toLowerCase();
  if (!host || host === 'localhost' || /^[\d.]+$/.test(host) || host === own || host === `www.${own}`)
    return null;
  return { domain: host };
}

export function OrganizationProvider({
  children,
  fallback = null,
}: {
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const session = useSession();
  const config = useAppConfig();
  const queryClient = useQueryClient();
  const signedIn = session.status === 'signedIn';
  // Switched off, organizations are not asked for and everyone works in Personal (their data is kept).
  const organizationsOn = config.feature('organizations_enabled');
  const [current, setCurrent] = useState<CurrentOrganization | null>(null);
  const [resolvedFor, setResolvedFor] = useState<number | null>(null);
  const [pendingStaffScope, setPendingStaffScope] = useState<CurrentOrganization | null>(null);

  const membershipsQuery = useQuery({
    queryKey: MEMBERSHIPS_QUERY_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/organizations'))).organizations ?? [],
    enabled: signedIn && organizationsOn,
    staleTime: 60 * 1000,
  });
  const memberships = useMemo(
    () => (organizationsOn ? (membershipsQuery.data ?? []) : []),
    [organizationsOn, membershipsQuery.data],
  );
  // The choice order in one place: ?org= slug, a slug leading the path, the domain; then stored, default, Personal.
  const pathSlug = useMemo(
    () =>
      typeof window === 'undefined' || new URLSearchParams(window.location.search).get('org')
        ? null
        : pathOrganizationSlug(window.location.pathname),
    [],
  );
  const hint = useMemo(() => {
    if (typeof window === 'undefined') return null;
    const fromUrl = organizationHint(window.location, config.get('domain'));
    if (fromUrl && 'slug' in fromUrl) return fromUrl;
    return pathSlug ? { slug: pathSlug } : fromUrl;
  }, [config, pathSlug]);
  const lookupQuery = useQuery({
    queryKey: ['organizations', 'lookup', hint],
    queryFn: async () =>
      (await unwrap(api.GET('/api/organizations/lookup', { params: { query: hint ?? {} } }))).organization ??
      null,
    enabled: signedIn && organizationsOn && hint !== null,
    staleTime: Infinity,
    retry: false,
  });

  const userId = session.user?.user_id ?? null;
  const lookupSettled = hint === null || !organizationsOn || !lookupQuery.isPending;
  const membershipsSettled = !organizationsOn || !membershipsQuery.isPending;

  useEffect(() => {
    if (!signedIn || userId === null || !lookupSettled || !membershipsSettled) return;
    if (resolvedFor === userId) return;
    const input: OrganizationChoiceInput = {
      matched: organizationsOn ? (lookupQuery.data ?? null) : null,
      stored: readStoredOrganization(),
      defaultOrganization: session.user?.default_organization,
      memberships,
      isStaff: session.staffRole !== null,
    };
    let chosen = organizationsOn ? chooseOrganization(input) : null;
    if (chosen && chosen.role === null) {
      // Staff are never moved silently into an organization they do not belong to: they confirm it first.
      setPendingStaffScope(chosen);
      chosen = chooseOrganization({ ...input, matched: null });
    }
    sessionStore.setOrganizationId(chosen?.organization_id ?? null);
    setCurrent(chosen);
    setResolvedFor(userId);
    if (pathSlug && lookupQuery.data?.slug === pathSlug) {
      // /{org_slug}/rest: the slug chose the scope; the screens answer at /rest.
      const { pathname, search, hash } = window.location;
      window.history.replaceState(
        window.history.state,
        '',
        withoutOrganizationSlug(pathname, pathSlug) + search + hash,
      );
      window.dispatchEvent(new PopStateEvent('popstate'));
    }
  }, [
    pathSlug,
    signedIn,
    organizationsOn,
    userId,
    lookupSettled,
    membershipsSettled,
    resolvedFor,
    lookupQuery.data,
    memberships,
    session.user?.default_organization,
    session.staffRole,
  ]);

  const choose = useCallback(
    (id: number | null) => {
      const next =
        id === null
          ? null
          : (() => {
              const m = memberships.find((x) => x.organization_id === id);
              if (m) return toCurrent(m, memberships);
              if (lookupQuery.data?.organization_id === id) return toCurrent(lookupQuery.data, memberships);
              return null;
            })();
      if (id !== null && !next) return;
      if (next && next.role === null && sessionStore.getStaffScopeConfirmed() !== next.organization_id) {
        setPendingStaffScope(next);
        return;
      }
      tabStorage().setItem(STORAGE_KEYS.organizationId, next ? String(next.organization_id) : PERSONAL);
      sessionStore.setOrganizationId(next?.organization_id ?? null);
      setCurrent(next);
      // Data of the old scope must not show in the new one.
      void queryClient.resetQueries({
        predicate: (q) => !UNSCOPED_KEYS.has(String(q.queryKey[0])) && q.queryKey[1] !== 'mine',
      });
    },
    [memberships, lookupQuery.data, queryClient],
  );

  const confirmStaffScope = useCallback(() => {
    if (!pendingStaffScope) return;
    sessionStore.setStaffScopeConfirmed(pendingStaffScope.organization_id);
    sessionStore.setOrganizationId(pendingStaffScope.organization_id);
    setCurrent(pendingStaffScope);
    setPendingStaffScope(null);
    void queryClient.resetQueries({
      predicate: (q) => !UNSCOPED_KEYS.has(String(q.queryKey[0])) && q.queryKey[1] !== 'mine',
    });
  }, [pendingStaffScope, queryClient]);
  const dismissStaffScope = useCallback(() => setPendingStaffScope(null), []);

  // Fetching the user's organizations ignores a 400 and alerts otherwise.
  useEffect(() => {
    if (membershipsQuery.error) notifyError(membershipsQuery.error);
  }, [membershipsQuery.error]);

  // Keep the role fresh when memberships reload (e.g. after an admin changed it).
  useEffect(() => {
    setCurrent((prev) => {
      if (!prev) return prev;
      const m = memberships.find((x) => x.organization_id === prev.organization_id);
      const role = m ? membershipRole(m) : prev.role;
      return role === prev.role ? prev : { ...prev, role };
    });
  }, [memberships]);

  const resolving = signedIn && resolvedFor !== userId;
  const value = useMemo<OrganizationState>(
    () => ({
      current: signedIn ? current : null,
      memberships,
      choose,
      resolving,
      pendingStaffScope: signedIn ? pendingStaffScope : null,
      confirmStaffScope,
      dismissStaffScope,
    }),
    [
      signedIn,
      current,
      memberships,
      choose,
      resolving,
      pendingStaffScope,
      confirmStaffScope,
      dismissStaffScope,
    ],
  );
  if (resolving) return <>{fallback}</>;
  return <OrganizationContext.Provider value={value}>{children}</OrganizationContext.Provider>;
}

export function useOrganization(): OrganizationState {
  const value = useContext(OrganizationContext);
  if (!value) throw new Error('useOrganization must be used inside <OrganizationProvider>');
  return value;
}
