import { Table } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PagedTable, pageCount, type PagedTableProps } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';

const loaded = { isPending: false, isError: false, error: null };

function renderTable(props: Partial<PagedTableProps> = {}) {
  const onPageChange = jest.fn();
  renderWithProviders(
    <PagedTable
      query={loaded}
      minWidth={400}
      head={
        <>
          <Table.Th>Name</Table.Th>
          <Table.Th>Email</Table.Th>
        </>
      }
      columns={2}
      emptyText="Nothing here"
      rows={[]}
      totalLabel="0 people"
      page={1}
      pages={1}
      onPageChange={onPageChange}
      {...props}
    />,
  );
  return { onPageChange };
}

describe('PagedTable', () => {
  it('shows a spinner and no table while the list is pending', async () => {
    renderTable({ query: { isPending: true, isError: false, error: null }, totalLabel: undefined });
    expect(await screen.findByRole('status', { name: 'Loading...' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText('0 people')).not.toBeInTheDocument();
  });

  it("shows the error's message as an alert", async () => {
    renderTable({ query: { isPending: false, isError: true, error: new Error('Server unavailable') } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Server unavailable');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the empty text in one cell across every column', async () => {
    renderTable();
    const cell = await screen.findByRole('cell', { name: 'Nothing here' });
    expect(cell).toHaveAttribute('colspan', '2');
    expect(screen.getByRole('columnheader', { name: 'Email' })).toBeInTheDocument();
  });

  it('shows the rows and the total, and no pager on a single page', async () => {
    renderTable({
      rows: [
        <Table.Tr key="1">
          <Table.Td>Ada</Table.Td>
          <Table.Td>ada@example.com</Table.Td>
        </Table.Tr>,
      ],
      totalLabel: '1 person',
    });
    expect(await screen.findByRole('cell', { name: 'ada@example.com' })).toBeInTheDocument();
    expect(screen.queryByText('Nothing here')).not.toBeInTheDocument();
    expect(screen.getByText('1 person')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '2' })).not.toBeInTheDocument();
  });

  it('shows a pager with more than one page and reports the page chosen', async () => {
    const { onPageChange } = renderTable({ page: 1, pages: 3, totalLabel: '45 people' });
    await userEvent.click(await screen.findByRole('button', { name: '2' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it("shows a page's own pager in place of the default one", async () => {
    renderTable({ pages: 3, pager: <nav aria-label="Own pager" /> });
    expect(await screen.findByRole('navigation', { name: 'Own pager' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '2' })).not.toBeInTheDocument();
  });
});

describe('pageCount', () => {
  it('rounds up, and is at least one page', () => {
    expect(pageCount(45, 20)).toBe(3);
    expect(pageCount(40, 20)).toBe(2);
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(5, 0)).toBe(5);
  });
});
