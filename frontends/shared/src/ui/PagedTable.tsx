import { Group, Pagination, Paper, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageLoader } from './PageLoader';

/** How many pages a list of `total` items has at `limit` a page (at least one). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, limit)));
}

export interface PagedTableProps {
  /** The list query's state: a spinner while pending, its message as an alert on error. */
  query: { isPending: boolean; isError: boolean; error: Error | null };
  minWidth: number;
  /** The header cells (`Table.Th`), in one row. */
  head: ReactNode;
  /** How many columns the empty-state cell spans. */
  columns: number;
  emptyText: string;
  /** The body rows (`Table.Tr`, keyed). */
  rows: ReactNode[];
  /** The footer's count text; no footer while it is absent (before the first page arrives). */
  totalLabel?: string;
  page: number;
  pages: number;
  onPageChange: (page: number) => void;
  /** A pager of the page's own in place of the default one (which shows only with more than one page). */
  pager?: ReactNode;
  highlightOnHover?: boolean;
  /** The table's accessible name, where no heading right above it names it. */
  label?: string;
}

/** A back-office list: a bordered table with loading, error and empty states, then its total and pager. */
export function PagedTable({
  query,
  minWidth,
  head,
  columns,
  emptyText,
  rows,
  totalLabel,
  page,
  pages,
  onPageChange,
  pager,
  highlightOnHover = true,
  label,
}: PagedTableProps) {
  return (
    <>
      <Paper withBorder radius="md">
        {query.isPending ? (
          <PageLoader />
        ) : query.isError ? (
          <Text c="red" p="md" role="alert">
            {query.error?.message}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={minWidth}>
            <Table striped highlightOnHover={highlightOnHover} verticalSpacing="sm" aria-label={label}>
              <Table.Thead>
                <Table.Tr>{head}</Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns}>
                      <Text c="dimmed" ta="center" py="md">
                        {emptyText}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {totalLabel !== undefined ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {totalLabel}
          </Text>
          {pager ??
            (pages > 1 ? (
              <Pagination total={pages} value={page} onChange={onPageChange} siblings={1} boundaries={1} />
            ) : null)}
        </Group>
      ) : null}
    </>
  );
}
