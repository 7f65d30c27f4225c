import '@mantine/dates/styles.css';
import { Badge, Code, Group, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PagedTable,
  pageCount,
  api,
  dateDisplayFormat,
  unwrap,
  useDebouncedValue,
  useFormat,
} from '@avatar-studio/shared';
import { AUDIT_ACTIONS } from '@avatar-studio/contracts/audit';

export const AUDIT_QUERY_KEY = ['admin', 'audit'] as const;
const PAGE_SIZE = 50;

/** /admin/audit: the audit records, newest first, filtered by actor, target, action and date range. */
export function AuditPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [actorInput, setActorInput] = useState<number | string>('');
  const [targetInput, setTargetInput] = useState<number | string>('');
  const actor = useDebouncedValue(actorInput);
  const target = useDebouncedValue(targetInput);
  const [action, setAction] = useState<string | null>(null);
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  const [applied, setApplied] = useState<[string | null, string | null]>([null, null]);
  const filterKey = JSON.stringify([actor, target, action, applied]);
  const [pageState, setPageState] = useState({ page: 1, filterKey });
  const page = pageState.filterKey === filterKey ? pageState.page : 1;

  const list = useQuery({
    queryKey: [...AUDIT_QUERY_KEY, { page, actor, target, action, applied }],
    queryFn: () =>
      unwrap(
        api.GET('/api/audit-events', {
          params: {
            query: {
              page,
              limit: PAGE_SIZE,
              ...(actor !== '' ? { actor_user_id: Number(actor) } : {}),
              ...(target !== '' ? { target_user_id: Number(target) } : {}),
              ...(action ? { action: action as (typeof AUDIT_ACTIONS)[number] } : {}),
              // Whole days in the browser's time zone; `to` is exclusive, so the day after the last one.
              ...(applied[0] ? { from: dayjs(applied[0]).startOf('day').toISOString() } : {}),
              ...(applied[1] ? { to: dayjs(applied[1]).add(1, 'day').startOf('day').toISOString() } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const changeRange = (next: DatesRangeValue<string>) => {
    setRange(next);
    if ((next[0] && next[1]) || (!next[0] && !next[1])) setApplied([next[0], next[1]]);
  };

  const data = list.data;
  const rows = data?.audit_events ?? [];
  const pages = data ? pageCount(data.total, data.limit) : 1;

  return (
    <Stack gap="md" p="md">
      <Title order={1} size="h2">
        {t('audit.title')}
      </Title>
      <Group align="flex-end" wrap="wrap" gap="md">
        <NumberInput
          label={t('audit.actor')}
          value={actorInput}
          onChange={setActorInput}
          min={1}
          allowDecimal={false}
          w={180}
        />
        <NumberInput
          label={t('audit.target')}
          value={targetInput}
          onChange={setTargetInput}
          min={1}
          allowDecimal={false}
          w={180}
        />
        <Select
          label={t('audit.action')}
          placeholder={t('audit.anyAction')}
          data={[...AUDIT_ACTIONS]}
          value={action}
          onChange={setAction}
          clearable
          searchable
          w={240}
        />
        <DatePickerInput
          type="range"
          label={t('audit.dateRange')}
          value={range}
          onChange={changeRange}
          valueFormat={dateDisplayFormat(format.language)}
          locale={format.language.startsWith('es') ? 'es' : 'en'}
          leftSection={<IconCalendar size={16} aria-hidden />}
          allowSingleDateInRange
          clearable
          miw={260}
        />
      </Group>
      <PagedTable
        query={list}
        minWidth={820}
        highlightOnHover={false}
        head={
          <>
            <Table.Th>{t('audit.columns.time')}</Table.Th>
            <Table.Th>{t('audit.columns.action')}</Table.Th>
            <Table.Th>{t('audit.columns.actor')}</Table.Th>
            <Table.Th>{t('audit.columns.target')}</Table.Th>
            <Table.Th>{t('audit.columns.details')}</Table.Th>
          </>
        }
        columns={5}
        emptyText={t('audit.empty')}
        rows={rows.map((row) => (
          <Table.Tr key={row.audit_event_id}>
            <Table.Td>{format.dateTime(row.createdAt)}</Table.Td>
            <Table.Td>
              <Badge variant="light">{row.action}</Badge>
            </Table.Td>
            <Table.Td>
              {row.actor_user_id === null ? (
                t('audit.system')
              ) : (
                <>
                  <Text size="sm">{row.actor_email ?? t('audit.user', { id: row.actor_user_id })}</Text>
                  <Text size="xs" c="dimmed">
                    {t('audit.user', { id: row.actor_user_id })}
                    {row.actor_staff_role ? ` · ${row.actor_staff_role}` : ''}
                  </Text>
                </>
              )}
            </Table.Td>
            <Table.Td>
              {row.target_type ? `${row.target_type} ${row.target_id ?? ''}`.trim() : ''}
              {row.target_user_id !== null ? (
                <Text size="xs" c="dimmed">
                  {t('audit.user', { id: row.target_user_id })}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td maw={320}>
              {Object.keys(row.details ?? {}).length ? (
                // Focusable: a long record scrolls, and keyboard users must reach it too.
                <Code block fz="xs" tabIndex={0} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {JSON.stringify(row.details)}
                </Code>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
        totalLabel={data ? t('audit.total', { count: data.total }) : undefined}
        page={page}
        pages={pages}
        onPageChange={(next) => setPageState({ page: next, filterKey })}
      />
    </Stack>
  );
}
