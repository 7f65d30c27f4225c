import { Alert, Button } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Spec 001 §1, §6: users without has_access see the notice and a link to /pricing instead of generating. */
export function UpgradePrompt() {
  const { t } = useTranslation('customer');
  return (
    <Alert color="yellow" icon={<IconLock size={18} aria-hidden />} role="status">
      {t('workflows.noAccess')}
      <Button component={Link} to="/pricing" size="xs" variant="light" ml="sm">
        {t('workflows.seePlans')}
      </Button>
    </Alert>
  );
}
