import { Alert, Anchor, CloseButton, Group, Text } from '@mantine/core';
import { useCan } from '@avatar-studio/shared';
import { IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useSetupChecklist } from './api';

/** Remembered for the browser tab's session only: the banner is back on the next sign-in. */
const DISMISSED_KEY = 'avatar-studio.setup-banner-dismissed';

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Above every back-office screen for staff admins while a required setup item is not done; hidden on the
 * dashboard, which shows the checklist itself.
 */
export function SetupBanner() {
  const { t } = useTranslation('admin');
  const isAdmin = useCan('appconfig.edit');
  const location = useLocation();
  const onDashboard = /^\/admin\/?$/.test(location.pathname);
  const [dismissed, setDismissed] = useState(wasDismissed);
  const checklist = useSetupChecklist(isAdmin && !dismissed);
  if (!isAdmin || dismissed || onDashboard || !checklist.data || checklist.data.complete) return null;
  const left = checklist.data.items.filter((item) => item.required && item.state !== 'done').length;
  const dismiss = () => {
    try {
      sessionStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Storage refused (private mode): hidden for this page only.
    }
    setDismissed(true);
  };
  return (
    // A named region, not a status: it is standing advice, and screens wait for role="status" spinners to end.
    <Alert
      color="blue"
      variant="light"
      m="md"
      mb={0}
      icon={<IconListCheck aria-hidden />}
      role="region"
      aria-label={t('setup.title')}
    >
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">
          {t('setup.banner.text', { count: left })}{' '}
          <Anchor component={Link} to="/admin" size="sm">
            {t('setup.banner.link')}
          </Anchor>
        </Text>
        <CloseButton onClick={dismiss} aria-label={t('setup.banner.dismiss')} />
      </Group>
    </Alert>
  );
}
