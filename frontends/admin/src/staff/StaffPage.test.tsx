import { notifications } from '@mantine/notifications';
import { registerTranslations, useSession } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockCall } from '@avatar-studio/shared/testing';
import { configure, act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { en, es } from '../i18n';
import type { ReactNode } from 'react';
import { StaffPage as Page } from './StaffPage';

registerTranslations('admin', { en, es });
// The first render of a file loads Mantine and the providers: allow more than the default second.
configure({ asyncUtilTimeout: 5000 });

/** Like the shell: the remote's screen mounts once the session and its organization are settled. */
function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}
const StaffPage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

afterEach(() => {
  notifications.clean();
  jest.useRealTimers();
});

const admin = testUser({ staff: { staff_id: 1, role: 'admin' } });

function member(staff_id: number, email: string, role: 'admin' | 'manager' = 'manager') {
  return {
    staff_id,
    role,
    user_id: staff_id + 100,
    user: { name: `Name${staff_id}`, last_name: `Last${staff_id}`, email },
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

/** GET /api/staff/admin/all over 25 members, 10 a page, searching the email. */
function staffList(call: MockCall) {
  const all = Array.from({ length: 25 }, (_, i) =>
    member(i + 1, `person${i + 1}@example.com`, i === 0 ? 'admin' : 'manager'),
  );
  const query = call.query.get('query') ?? '';
  const page = Number(call.query.get('page') ?? 1);
  const found = all.filter((s) => s.user.email.includes(query));
  return { body: { staff: found.slice((page - 1) * 10, page * 10), total: found.length, page, limit: 10 } };
}

/** Opens a Mantine Select and picks an option of its own list (every Select keeps its options in the DOM). */
async function pick(ui: ReturnType<typeof userEvent.setup>, input: HTMLElement, option: string) {
  await ui.click(input);
  await waitFor(() => expect(input).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  await ui.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

const listCalls = (calls: MockCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/staff/admin/all');

describe('Staff', () => {
  it('lists staff with email, name and role', async () => {
    renderWithProviders(<StaffPage />, { user: admin, routes: { 'GET /api/staff/admin/all': staffList } });
    expect(await screen.findByText('person1@example.com')).toBeInTheDocument();
    expect(screen.getByText('Name1 Last1')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Role of person1@example.com' })).toHaveValue('Admin');
    expect(screen.getByRole('textbox', { name: 'Role of person2@example.com' })).toHaveValue('Manager');
    expect(screen.getByText('25 staff members')).toBeInTheDocument();
  });

  it('searches by email 500 ms after the last keystroke, from page 1', async () => {
    jest.useFakeTimers();
    const { fetch } = renderWithProviders(<StaffPage />, {
      user: admin,
      routes: { 'GET /api/staff/admin/all': staffList },
    });
    const ui = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await screen.findByText('person1@example.com');
    await ui.click(screen.getByRole('button', { name: '2' }));
    await screen.findByText('person11@example.com');

    await ui.type(screen.getByRole('searchbox', { name: 'Search by email' }), 'person2');
    act(() => jest.advanceTimersByTime(499));
    expect(listCalls(fetch.calls).filter((c) => c.query.has('query'))).toHaveLength(0);
    act(() => jest.advanceTimersByTime(1));

    expect(await screen.findByText('person20@example.com')).toBeInTheDocument();
    const searches = listCalls(fetch.calls).filter((c) => c.query.has('query'));
    expect(searches).toHaveLength(1);
    expect(searches[0].query.get('query')).toBe('person2');
    expect(searches[0].query.get('page')).toBe('1');
  });

  it('pages through the list', async () => {
    const { fetch } = renderWithProviders(<StaffPage />, {
      user: admin,
      routes: { 'GET /api/staff/admin/all': staffList },
    });
    const ui = userEvent.setup();
    await screen.findByText('person1@example.com');
    expect(listCalls(fetch.calls)[0].query.get('page')).toBe('1');
    await ui.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('person21@example.com')).toBeInTheDocument();
    expect(screen.queryByText('person1@example.com')).not.toBeInTheDocument();
    expect(listCalls(fetch.calls).at(-1)!.query.get('page')).toBe('3');
  });

  it('adds a staff member with the admin role by default', async () => {
    const { fetch } = renderWithProviders(<StaffPage />, {
      user: admin,
      routes: {
        'GET /api/staff/admin/all': staffList,
        'POST /api/staff': { status: 201, body: { staff: member(30, 'new@example.com', 'admin') } },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('person1@example.com');
    const before = listCalls(fetch.calls).length;
    await ui.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add staff member' });
    expect(within(dialog).getByRole('textbox', { name: 'Role' })).toHaveValue('Admin');
    await ui.type(within(dialog).getByRole('textbox', { name: /^Email/ }), ' New@Example.com ');
    await ui.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('Staff member added.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/staff')[0].body).toEqual({ email: 'new@example.com', role: 'admin' });
    await waitFor(() => expect(listCalls(fetch.calls).length).toBeGreaterThan(before));
  });

  it('adds a manager, and shows the server message when the user does not exist', async () => {
    const { fetch } = renderWithProviders(<StaffPage />, {
      user: admin,
      routes: {
        'GET /api/staff/admin/all': staffList,
        'POST /api/staff': {
          status: 404,
          body: {
            statusCode: 404,
            message: 'There is no account with that email.',
            error: 'Not Found',
            code: 'not_found',
          },
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('person1@example.com');
    await ui.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add staff member' });
    await ui.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'nobody@example.com');
    await pick(ui, within(dialog).getByRole('textbox', { name: 'Role' }), 'Manager');
    await ui.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('There is no account with that email.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/staff')[0].body).toEqual({
      email: 'nobody@example.com',
      role: 'manager',
    });
    expect(screen.getByRole('dialog', { name: 'Add staff member' })).toBeInTheDocument();
  });

  it('refuses an invalid email without calling the server', async () => {
    const { fetch } = renderWithProviders(<StaffPage />, {
      user: admin,
      routes: { 'GET /api/staff/admin/all': staffList },
    });
    const ui = userEvent.setup();
    await screen.findByText('person1@example.com');
    await ui.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add staff member' });
    await ui.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'not-an-email');
    await ui.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Email is invalid.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/staff')).toHaveLength(0);
  });

  it('changes a role with PUT /api/staff', async () => {
    const { fetch } = renderWithProviders(<StaffPage />, {
      user: admin,
      routes: {
        'GET /api/staff/admin/all': staffList,
        'PUT /api/staff': { body: { staff: member(2, 'person2@example.com', 'admin') } },
      },
    });
    const ui = userEvent.setup();
    await pick(ui, await screen.findByRole('textbox', { name: 'Role of person2@example.com' }), 'Admin');
    expect(await screen.findByText('Role updated.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/staff')[0].body).toEqual({ staff_id: 2, role: 'admin' });
  });

  it('shows the server message when a role change is refused', async () => {
    renderWithProviders(<StaffPage />, {
      user: admin,
      routes: {
        'GET /api/staff/admin/all': staffList,
        'PUT /api/staff': {
          status: 409,
          body: {
            statusCode: 409,
            message: 'The last admin cannot be demoted.',
            error: 'Conflict',
            code: 'last_admin',
          },
        },
      },
    });
    const ui = userEvent.setup();
    await pick(ui, await screen.findByRole('textbox', { name: 'Role of person1@example.com' }), 'Manager');
    expect(await screen.findByText('The last admin cannot be demoted.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Role of person1@example.com' })).toHaveValue('Admin'),
    );
  });

  it('deletes a staff member after confirmation', async () => {
    const { fetch } = renderWithProviders(<StaffPage />, {
      user: admin,
      routes: {
        'GET /api/staff/admin/all': staffList,
        'DELETE /api/staff/3': { body: { staff: member(3, 'person3@example.com') } },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete person3@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete staff member?' });
    expect(within(dialog).getByText(/person3@example.com will no longer have access/)).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/staff/3')).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Staff member deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/staff/3')).toHaveLength(1);
  });
});
