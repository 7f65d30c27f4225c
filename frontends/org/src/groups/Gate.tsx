import { useCan, type CurrentOrganization } from '@avatar-studio/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../admin-panel/Notice';
import { RequireOrganization } from '../campaigns/Gate';
import { ORG_NS } from '../i18n';

export const GROUPS = '/organization/groups';

/** Groups are managed by the organization's Managers and Admins; others get an explanation. */
export function GroupsGate({ children }: { children: (organization: CurrentOrganization) => ReactNode }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'groups.noAccess' });
  const allowed = useCan('groups.manage');
  return (
    <RequireOrganization>
      {(organization) =>
        allowed ? (
          children(organization)
        ) : (
          <Notice title={t('title')} body={t('body')} linkTo="/organizations" linkLabel={t('link')} />
        )
      }
    </RequireOrganization>
  );
}
