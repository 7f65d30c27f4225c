import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { flagValueIsOn, isFeatureOn, type FeatureFlag } from '@avatar-studio/contracts/feature-flags';
import { api, unwrap } from '../api/client';
import type { ConfigEntry } from '../api/contracts';
import { i18n } from '../i18n';

export interface AppConfig {
  /** The raw value of a key, or null when unset. */
  get(key: string): string | null;
  /** 'true' / '1' (or boolean true) are on; anything else, or unset, is off. */
  flag(key: string): boolean;
  /**
   * Whether a declared feature is on: its flag (or its declared default when unset) and the flag it requires
   * (see the declaration in libs/contracts/src/feature-flags.ts). Use this rather than flag() for features.
   */
  feature(flag: FeatureFlag): boolean;
  values: Readonly<Record<string, string | null>>;
}

export const APP_CONFIG_QUERY_KEY = ['appconfig'] as const;

const AppConfigContext = createContext<AppConfig | null>(null);

export function toConfigRecord(config: unknown): Record<string, string | null> {
  const record: Record<string, string | null> = {};
  if (Array.isArray(config)) {
    for (const entry of config as ConfigEntry[]) {
      if (entry && typeof entry.key === 'string')
        record[entry.key] = entry.value == null ? null : String(entry.value);
    }
  } else if (config && typeof config === 'object') {
    // Tolerate a plain key/value object as well as the spec's list.
    for (const [key, value] of Object.entries(config)) record[key] = value == null ? null : String(value);
  }
  return record;
}

export function createAppConfig(values: Record<string, string | null>): AppConfig {
  return {
    values,
    get: (key) => values[key] ?? null,
    flag: (key) => flagValueIsOn(values[key]),
    feature: (flag) => isFeatureOn(flag, (f) => values[f]),
  };
}

/** Loads GET /api/appconfig first; nothing below renders until it is present. */
export function AppConfigProvider({
  children,
  fallback = null,
}: {
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const query = useQuery({
    queryKey: APP_CONFIG_QUERY_KEY,
    queryFn: async () => toConfigRecord((await unwrap(api.GET('/api/appconfig'))).config),
    staleTime: 5 * 60 * 1000,
  });
  const value = useMemo(() => (query.data ? createAppConfig(query.data) : null), [query.data]);

  useEffect(() => {
    if (!value) return;
    const name = value.get('app_name') ?? value.get('title');
    const tagline = value.get('tagline');
    if (name) document.title = tagline ? `${name} | ${tagline}` : name;
    const favicon = value.get('favicon_url');
    if (favicon) {
      let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!link) {
        link = document.createElement('link');
        link.rel = 'icon';
        document.head.appendChild(link);
      }
      link.href = favicon;
    }
  }, [value]);

  if (!value) {
    if (query.isError) {
      // Before the config there is no theme or translation context, so this stays plain HTML.
      return (
        <div role="alert" style={{ fontFamily: 'sans-serif', padding: 32 }}>
          <p>{i18n.t('common:startError')}</p>
          <button type="button" onClick={() => void query.refetch()}>
            {i18n.t('common:retry')}
          </button>
        </div>
      );
    }
    return <>{fallback}</>;
  }
  return <AppConfigContext.Provider value={value}>{children}</AppConfigContext.Provider>;
}

export function useAppConfig(): AppConfig {
  const value = useContext(AppConfigContext);
  if (!value) throw new Error('useAppConfig must be used inside <AppConfigProvider>');
  return value;
}

/** For tests and standalone tools: provide a fixed config without a request. */
export function StaticAppConfigProvider({
  values,
  children,
}: {
  values: Record<string, string | null>;
  children: ReactNode;
}) {
  const value = useMemo(() => createAppConfig(values), [values]);
  return <AppConfigContext.Provider value={value}>{children}</AppConfigContext.Provider>;
}
