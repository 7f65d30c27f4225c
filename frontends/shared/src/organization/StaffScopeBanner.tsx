import { Alert, Button, Group, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useOrganization } from './OrganizationProvider';

/**
 * Tells staff when a link points them to an organization they are not a member of, and asks them to confirm
 * before acting there; while they act in it, a reminder stays with a way out.
 */
export function StaffScopeBanner() {
  const { t } = useTranslation('common', { keyPrefix: 'staffScope' });
  const { current, pendingStaffScope, confirmStaffScope, dismissStaffScope, choose } = useOrganization();
  if (pendingStaffScope) {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconShieldLock aria-hidden />}
        title={t('pendingTitle', { name: pendingStaffScope.name })}
        role="alert"
        mb="md"
      >
        <Text size="sm">{t('pendingBody', { name: pendingStaffScope.name })}</Text>
        <Group mt="sm" gap="xs">
          <Button size="xs" color="orange" onClick={confirmStaffScope}>
            {t('confirm', { name: pendingStaffScope.name })}
          </Button>
          <Button size="xs" variant="default" onClick={dismissStaffScope}>
            {current ? t('stayIn', { name: current.name }) : t('stayPersonal')}
          </Button>
        </Group>
      </Alert>
    );
  }
  if (current && current.role === null) {
    return (
      <Alert color="orange" variant="light" icon={<IconShieldLock aria-hidden />} role="status" mb="md">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm">{t('active', { name: current.name })}</Text>
          <Button size="xs" variant="default" onClick={() => choose(null)}>
            {t('leave')}
          </Button>
        </Group>
      </Alert>
    );
  }
  return null;
}
