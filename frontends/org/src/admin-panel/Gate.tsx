import { IconBuildingCommunity } from '@tabler/icons-react';
import { useCan, useOrganization, type CurrentOrganization, type Permission } from '@avatar-studio/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ORG_NS } from '../i18n';
import { Notice } from './Notice';

export const ADMIN_PANEL = '/organization/admin-panel';

/**
 * Renders `children` for the current organization when the caller has `permission` there; otherwise a clear
 * explanation (no organization chosen, or no access). The server refuses these calls anyway.
 */
export function OrganizationGate({
  permission,
  denied,
  children,
}: {
  permission: Permission;
  /** Which explanation to give a caller without the permission. */
  denied: 'panel' | 'edit';
  children: (organization: CurrentOrganization) => ReactNode;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'adminPanel' });
  const { current } = useOrganization();
  const allowed = useCan(permission);
  const seesPanel = useCan('organization.adminPanel');
  if (!current) {
    return (
      <Notice
        title={t('noOrganization.title')}
        body={t('noOrganization.body')}
        linkTo="/organizations"
        linkLabel={t('noOrganization.link')}
        icon={<IconBuildingCommunity size={32} aria-hidden />}
      />
    );
  }
  if (!allowed) {
    return denied === 'edit' && seesPanel ? (
      <Notice
        title={t('access.title')}
        body={t('access.edit')}
        linkTo={ADMIN_PANEL}
        linkLabel={t('access.back')}
      />
    ) : (
      <Notice
        title={t('access.title')}
        body={t('access.panel')}
        linkTo="/organizations"
        linkLabel={t('noOrganization.link')}
      />
    );
  }
  return <>{children(current)}</>;
}
