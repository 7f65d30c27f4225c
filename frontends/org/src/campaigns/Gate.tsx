import { IconBuildingCommunity } from '@tabler/icons-react';
import { useOrganization, type CurrentOrganization } from '@avatar-studio/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../admin-panel/Notice';
import { ORG_NS } from '../i18n';

export const CAMPAIGNS = '/organization/campaigns';

/** Campaigns live in an organization: without one chosen, 'Please select an organization'. */
export function RequireOrganization({
  children,
}: {
  children: (organization: CurrentOrganization) => ReactNode;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns.noOrganization' });
  const { current } = useOrganization();
  if (!current) {
    return (
      <Notice
        title={t('title')}
        body={t('body')}
        linkTo="/organizations"
        linkLabel={t('link')}
        icon={<IconBuildingCommunity size={32} aria-hidden />}
      />
    );
  }
  return <>{children(current)}</>;
}
