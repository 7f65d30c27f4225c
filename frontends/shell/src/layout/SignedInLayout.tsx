import {
  StaffScopeBanner,
  useAppConfig,
  useOrganization,
  useSession,
  ViewingAsBanner,
} from '@avatar-studio/shared';
import { Anchor, AppShell, Burger, Group, Image, NavLink, ScrollArea, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { useRemotesManifest } from '../remotes/RemotesProvider';
import { Breadcrumbs } from './Breadcrumbs';
import { EntryMenu, OrganizationSwitcher, UserMenu } from './HeaderMenus';
import { NavIcon } from './icons';
import { LanguageModal } from './LanguageModal';
import { visibleEntries } from './navigation';
import { WelcomeVideoModal } from './WelcomeVideoModal';
import { WordBalance } from './WordBalance';

/** The signed-in frame: header (organization, menus), sidebar from the remotes with the word balance, breadcrumb, page. */
export function SignedInLayout() {
  const { t } = useTranslation('shell');
  const { t: tAny } = useTranslation();
  const config = useAppConfig();
  const { staffRole } = useSession();
  const { current } = useOrganization();
  const { navigation } = useRemotesManifest();
  const { pathname } = useLocation();
  const [navOpened, nav] = useDisclosure(false);
  const [languageOpened, language] = useDisclosure(false);

  const context = useMemo(
    () => ({
      actor: { staffRole, orgRole: current?.role ?? null },
      config,
      hasOrganization: current !== null,
    }),
    [staffRole, current, config],
  );
  const menus = useMemo(
    () => ({
      sidebar: visibleEntries(navigation, 'sidebar', context),
      tools: visibleEntries(navigation, 'tools', context),
      admin: visibleEntries(navigation, 'admin', context),
      organization: visibleEntries(navigation, 'organization', context),
      analytics: visibleEntries(navigation, 'analytics', context),
      user: visibleEntries(navigation, 'user', context),
    }),
    [navigation, context],
  );
  // Top-level destinations need no breadcrumb.
  const hiddenOn = useMemo(() => menus.sidebar.map((e) => e.path), [menus.sidebar]);
  const appName = config.get('app_name') ?? config.get('title') ?? '';
  const logo = config.get('landing_logo_src');

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'md', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={nav.toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={t('layout.toggleNavigation')}
            />
            <Anchor component={Link} to="/" underline="never" c="inherit">
              {logo ? (
                <Image src={logo} alt={appName} h={32} w="auto" fit="contain" />
              ) : (
                <Title order={1} size="h4">
                  {appName}
                </Title>
              )}
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <OrganizationSwitcher />
            <Group gap={4} visibleFrom="sm" wrap="nowrap">
              <EntryMenu label={t('layout.tools')} entries={menus.tools} />
              <EntryMenu label={t('layout.organization')} entries={menus.organization} />
              <EntryMenu label={t('layout.analytics')} entries={menus.analytics} />
              <EntryMenu label={t('layout.admin')} entries={menus.admin} />
            </Group>
            <UserMenu extra={menus.user} onLanguage={language.open} />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={t('layout.menu')}>
        <AppShell.Section grow component={ScrollArea}>
          {menus.sidebar.map((entry) => {
            const active = pathname === entry.path || pathname.startsWith(`${entry.path}/`);
            return (
              <NavLink
                key={entry.path}
                component={Link}
                to={entry.path}
                label={tAny(entry.labelKey)}
                leftSection={entry.icon ? <NavIcon name={entry.icon} size={18} /> : undefined}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={nav.close}
              />
            );
          })}
          {/* Below the small-screen breakpoint the header menus move into the drawer. */}
          <NavSection title={t('layout.tools')} entries={menus.tools} onNavigate={nav.close} />
          <NavSection title={t('layout.organization')} entries={menus.organization} onNavigate={nav.close} />
          <NavSection title={t('layout.analytics')} entries={menus.analytics} onNavigate={nav.close} />
          <NavSection title={t('layout.admin')} entries={menus.admin} onNavigate={nav.close} />
        </AppShell.Section>
        {/* The word balance is shown in the sidebar. */}
        <AppShell.Section pt="sm">
          <WordBalance />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <ViewingAsBanner />
        <StaffScopeBanner />
        <Breadcrumbs hiddenOn={hiddenOn} />
        <Outlet />
      </AppShell.Main>
      <LanguageModal opened={languageOpened} onClose={language.close} />
      <WelcomeVideoModal />
    </AppShell>
  );
}

function NavSection({
  title,
  entries,
  onNavigate,
}: {
  title: string;
  entries: ReturnType<typeof visibleEntries>;
  onNavigate(): void;
}) {
  const { t } = useTranslation();
  if (entries.length === 0) return null;
  return (
    <NavLink label={title} hiddenFrom="sm" childrenOffset={12}>
      {entries.map((entry) => (
        <NavLink
          key={entry.path}
          component={Link}
          to={entry.path}
          label={t(entry.labelKey)}
          onClick={onNavigate}
        />
      ))}
    </NavLink>
  );
}
