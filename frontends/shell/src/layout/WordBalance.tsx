import { api, formatNumber, unwrap, useRealtimeEvent, useSession } from '@avatar-studio/shared';
import { Group, Paper, Text } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/** A balance of 1,000,000 words means unlimited. */
export const UNLIMITED_WORDS = 1_000_000;
export const WORD_BALANCE_QUERY_KEY = ['words', 'balance'] as const;

/**
 * The word balance in the sidebar, from GET /api/words/balance, fetched again after every saved answer
 * (the words it cost are charged then). Staff generate without words, so a staff member sees it only when words
 * were actually granted to them.
 */
export function WordBalance() {
  const { t } = useTranslation('shell');
  const { staffRole } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: WORD_BALANCE_QUERY_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/words/balance'))).balance,
  });
  useRealtimeEvent('message_stream_end', () => {
    void queryClient.invalidateQueries({ queryKey: WORD_BALANCE_QUERY_KEY });
  });

  const balance = query.data;
  if (!balance) return null;
  const unlimited = balance.unlimited || balance.display_balance >= UNLIMITED_WORDS;
  if (staffRole !== null && (unlimited || balance.words <= 0)) return null;
  const text = unlimited
    ? t('layout.unlimited')
    : t('layout.words', { formatted: formatNumber(balance.display_balance) });
  return (
    <Paper withBorder radius="md" p="xs" data-testid="word-balance">
      <Group gap="xs" wrap="nowrap">
        <IconCoins size={18} stroke={1.5} aria-hidden />
        <div>
          <Text size="xs" c="dimmed">
            {t('layout.wordBalance')}
          </Text>
          <Text size="sm" fw={600}>
            {text}
          </Text>
        </div>
      </Group>
    </Paper>
  );
}
