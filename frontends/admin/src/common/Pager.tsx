import { Button, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The page numbers a pager shows: at most `buttons`, centred on the current page where the ends allow. */
export function pageWindow(page: number, pages: number, buttons: number): number[] {
  const count = Math.min(buttons, pages);
  const start = Math.min(Math.max(1, page - Math.floor(count / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/** Previous, up to `buttons` page numbers, next. */
export function Pager({
  page,
  pages,
  buttons,
  onChange,
}: {
  page: number;
  pages: number;
  buttons: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation('admin');
  if (pages <= 1) return null;
  return (
    <Group gap={4} component="nav" aria-label={t('pager.label')}>
      <Button
        size="xs"
        variant="default"
        aria-label={t('pager.previous')}
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
      >
        <IconChevronLeft size={14} aria-hidden />
      </Button>
      {pageWindow(page, pages, buttons).map((n) => (
        <Button
          key={n}
          size="xs"
          variant={n === page ? 'filled' : 'default'}
          aria-current={n === page ? 'page' : undefined}
          onClick={() => onChange(n)}
        >
          {n}
        </Button>
      ))}
      <Button
        size="xs"
        variant="default"
        aria-label={t('pager.next')}
        disabled={page >= pages}
        onClick={() => onChange(page + 1)}
      >
        <IconChevronRight size={14} aria-hidden />
      </Button>
    </Group>
  );
}
