import { useOrganization, useSession, type NavigationEntry } from '@avatar-studio/shared';
import { Avatar, Button, Menu, Select, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconCreditCard, IconLanguage, IconLogout, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { NavIcon } from './icons';

/** One header menu (Tools, Admin, Organization, Analytics); hidden when the user has none of its entries. */
export function EntryMenu({ label, entries }: { label: string; entries: NavigationEntry[] }) {
  const { t } = useTranslation();
  if (entries.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" rightSection={<IconChevronDown size={14} aria-hidden />}>
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {entries.map((entry) => (
          <Menu.Item
            key={entry.path}
            component={Link}
            to={entry.path}
            leftSection={entry.icon ? <NavIcon name={entry.icon} size={16} /> : undefined}
          >
            {t(entry.labelKey)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Personal plus the user's organizations (hidden when there are none). */
export function OrganizationSwitcher() {
  const { t } = useTranslation('shell');
  const { current, memberships, choose } = useOrganization();
  if (memberships.length === 0) return null;
  return (
    <Select
      aria-label={t('layout.organizationSwitcher')}
      size="xs"
      w={{ base: 140, sm: 200 }}
      allowDeselect={false}
      value={current ? String(current.organization_id) : 'personal'}
      data={[
        { value: 'personal', label: t('common:personal') },
        ...memberships.map((m) => ({ value: String(m.organization_id), label: m.name })),
      ]}
      onChange={(value) => choose(!value || value === 'personal' ? null : Number(value))}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** User menu: Settings, Billing, Logout (plus the language chooser and any remote's user entries). */
export function UserMenu({ extra, onLanguage }: { extra: NavigationEntry[]; onLanguage(): void }) {
  const { t } = useTranslation('shell');
  const { t: tAny } = useTranslation();
  const { user, signOut } = useSession();
  const initials = `${user?.name?.[0] ?? ''}${user?.last_name?.[0] ?? ''}`.toUpperCase();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton style={{ borderRadius: '50%' }}>
          {/* The button is named by this text; the initials are decoration (filled for contrast). */}
          <VisuallyHidden>{t('layout.userMenu')}</VisuallyHidden>
          <Avatar
            src={user?.file ?? undefined}
            radius="xl"
            size={34}
            color="initials"
            variant="filled"
            autoContrast
            name={user?.name}
            aria-hidden
          >
            {initials}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {user ? (
          <Menu.Label>
            <Text size="sm" fw={500} truncate maw={220}>
              {user.name} {user.last_name}
            </Text>
            <Text size="xs" c="dimmed" truncate maw={220}>
              {user.email}
            </Text>
          </Menu.Label>
        ) : null}
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          {t('layout.settings')}
        </Menu.Item>
        <Menu.Item component={Link} to="/billing" leftSection={<IconCreditCard size={16} aria-hidden />}>
          {t('layout.billing')}
        </Menu.Item>
        {extra.map((entry) => (
          <Menu.Item key={entry.path} component={Link} to={entry.path}>
            {tAny(entry.labelKey)}
          </Menu.Item>
        ))}
        <Menu.Item leftSection={<IconLanguage size={16} aria-hidden />} onClick={onLanguage}>
          {t('layout.language')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void signOut()}
        >
          {t('layout.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
