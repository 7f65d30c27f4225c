import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { AppConfigProvider, useAppConfig } from './appconfig/AppConfigProvider';
import { i18n } from './i18n';
import { OrganizationProvider } from './organization/OrganizationProvider';
import { SessionProvider, useSession } from './session/SessionProvider';
import { PageLoader } from './ui/PageLoader';
import { buildTheme, cssVariablesResolver } from './ui/theme';

/** Query defaults: the API client already retries 3 times 3 s apart, so queries do not retry again. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30 * 1000 },
      mutations: { retry: false },
    },
  });
}

/** Mantine with the app's colours; dark or light follows the signed-in user's dark_mode setting. */
export function ThemeProvider({ children, env }: { children: ReactNode; env?: 'default' | 'test' }) {
  const config = useAppConfig();
  const { user } = useSession();
  const { t } = useTranslation('common');
  const [close, saturation, hue, alpha] = [
    t('close'),
    t('colour.saturation'),
    t('colour.hue'),
    t('colour.alpha'),
  ];
  const theme = useMemo(
    () => buildTheme(config, { close, saturation, hue, alpha }),
    [config, close, saturation, hue, alpha],
  );
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      forceColorScheme={user ? (user.dark_mode ? 'dark' : 'light') : undefined}
      env={env}
    >
      <Notifications position="top-right" zIndex={1000} />
      {children}
    </MantineProvider>
  );
}

/**
 * Every provider an app needs, in dependency order. The shell mounts it once (remotes inherit it); a remote
 * running standalone mounts it itself. The router is the app's own (BrowserRouter, or MemoryRouter in tests).
 */
export function AppProviders({
  children,
  queryClient,
  env,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals (component tests). */
  env?: 'default' | 'test';
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <AppConfigProvider>
          <SessionProvider>
            <ThemeProvider env={env}>
              <OrganizationProvider fallback={<PageLoader minHeight="100vh" />}>
                {children}
              </OrganizationProvider>
            </ThemeProvider>
          </SessionProvider>
        </AppConfigProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
