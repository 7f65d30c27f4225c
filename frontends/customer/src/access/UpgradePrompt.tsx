import { Alert, Button } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * Beside a generate action, users without has_access see the notice and a link to /pricing
 * (the inline form of OutOfCreditsNotice).
 */
export function UpgradePrompt() {
  const { t } = useTranslation('customer');
  return (
    <Alert color="yellow" icon={<IconLock size={18} aria-hidden />} role="status">
      {t('outOfCredits.subscription')}
      <Button component={Link} to="/pricing" size="xs" variant="light" ml="sm">
        {t('outOfCredits.seePlans')}
      </Button>
    </Alert>
  );
}
