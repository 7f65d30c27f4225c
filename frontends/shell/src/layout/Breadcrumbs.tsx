import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { buildBreadcrumb } from './breadcrumb';

/** The breadcrumb bar above every signed-in page. */
export function Breadcrumbs({ hiddenOn }: { hiddenOn: string[] }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const crumb = buildBreadcrumb(pathname, hiddenOn);
  if (crumb.kind === 'hidden') return null;
  if (crumb.kind === 'back') {
    // The previous page when there is one in this tab, else the parent path.
    const hasHistory = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
    return (
      <Anchor
        component="button"
        type="button"
        size="sm"
        mb="sm"
        onClick={() => (hasHistory ? navigate(-1) : navigate(crumb.parent || '/'))}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        <IconArrowLeft size={16} aria-hidden />
        {t('layout.back')}
      </Anchor>
    );
  }
  return (
    <nav aria-label={t('layout.breadcrumb')}>
      <MantineBreadcrumbs mb="sm" separatorMargin={6}>
        {crumb.items.map((item) =>
          item.to ? (
            <Anchor key={item.to} component={Link} to={item.to} size="sm">
              {item.label}
            </Anchor>
          ) : (
            <Text key="current" size="sm" aria-current="page">
              {item.label}
            </Text>
          ),
        )}
      </MantineBreadcrumbs>
    </nav>
  );
}
