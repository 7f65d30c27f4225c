import { useCan, type CurrentOrganization } from '@avatar-studio/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../admin-panel/Notice';
import { RequireOrganization } from '../campaigns/Gate';
import { ORG_NS } from '../i18n';

export const PRODUCTS = '/organization/admin/products';

/** The organization's products are its Admins' (and staff admins'); others get an explanation. */
export function ProductsGate({ children }: { children: (organization: CurrentOrganization) => ReactNode }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'products.noAccess' });
  const allowed = useCan('organization.edit');
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
