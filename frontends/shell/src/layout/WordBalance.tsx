import { useSession } from '@avatar-studio/shared';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** 000 §9: 1,000,000 is the unlimited sentinel. */
export const UNLIMITED_WORDS = 1_000_000;

/** The user's word balance; shows nothing until the server sends one (the ledger). */
export function WordBalance() {
  const { t } = useTranslation('shell');
  const { user } = useSession();
  const balance = (user as { word_count?: unknown } | null)?.word_count;
  if (typeof balance !== 'number') return null;
  const text =
    balance >= UNLIMITED_WORDS
      ? t('layout.unlimitedWords')
      : // 000 §9: thousands separators are commas in both languages.
        t('layout.words', { formatted: balance.toLocaleString('en-US') });
  return (
    <Badge variant="light" size="lg" aria-label={`${t('layout.wordBalance')}: ${text}`} visibleFrom="xs">
      {text}
    </Badge>
  );
}
