import { expectPageExists } from '@avatar-studio/shared/testing';
import App from '../../App';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import type { MockCall } from '@avatar-studio/shared/testing';
import type { MemberRow, Membership } from '../api';
import { currentMonthRange } from '../format';
import {
  membership,
  renderOrg,
  resetNotifications,
  userIn,
  type Role,
} from '../../organizations/__tests__/render';

afterEach(resetNotifications);

const ada: MemberRow = {
  user_organization_id: 501,
  user_id: 42,
  name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  role: 'Admin',
  user_type_id: 1,
  total_words: 12345,
  last_used: '2025-03-04T10:00:00.000Z',
  ltv: 1234.5,
};
const bob: MemberRow = {
  user_organization_id: 502,
  user_id: 43,
  name: 'Bob',
  last_name: 'Builder',
  email: 'bob@example.com',
  role: 'Member',
  user_type_id: 3,
  total_words: 0,
  last_used: null,
  ltv: 0,
};

function usersReply(call: MockCall) {
  const query = call.query.get('query');
  const users = [ada, bob].filter((u) => !query || u.email.includes(query) || u.name.includes(query));
  return {
    body: {
      users,
      total: users.length,
      page: 1,
      limit: 25,
      start_date: call.query.get('start_date'),
      end_date: call.query.get('end_date'),
    },
  };
}

function asRole(role: Role, route = '/organization/admin-panel', routes = {}) {
  return renderOrg(route, {
    user: userIn(10),
    memberships: [membership(10, 'Acme', role)],
    routes: { 'GET /api/organizations/10/users': usersReply, ...routes },
  });
}

const membershipOf = (row: MemberRow): Membership => ({
  user_organization_id: row.user_organization_id,
  user_id: row.user_id,
  organization_id: 10,
  user_type_id: row.user_type_id,
  user_type: { user_type_id: row.user_type_id, name: row.role },
  last_use: row.last_used,
  user: { user_id: row.user_id, name: row.name, last_name: row.last_name, email: row.email },
  campaigns_access: [],
});

describe('Organization admin panel', () => {
  it('lists the users with the spec columns', async () => {
    asRole('Manager');
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['#ID', 'Name', 'Email', 'Role', 'Total Words', 'Last used', 'LTV ($)']);
    const adaRow = within(table).getByRole('row', { name: /ada@example.com/ });
    expect(within(adaRow).getByText('42')).toBeInTheDocument();
    expect(within(adaRow).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(adaRow).getByText('12,345')).toBeInTheDocument();
    expect(within(adaRow).getByText('Mar 04 2025')).toBeInTheDocument();
    expect(within(adaRow).getByText('1,234.50')).toBeInTheDocument();
    expect(
      within(within(table).getByRole('row', { name: /bob@example.com/ })).getByText('Never'),
    ).toBeInTheDocument();
  });

  it('filters by the current month by default', async () => {
    const { fetch } = asRole('Manager');
    await screen.findByRole('table');
    const [start, end] = currentMonthRange();
    expect(start).toBe(dayjs().startOf('month').format('YYYY-MM-DD'));
    expect(end).toBe(dayjs().endOf('month').format('YYYY-MM-DD'));
    const [call] = fetch.callsTo('GET /api/organizations/10/users');
    expect(call.query.get('start_date')).toBe(start);
    expect(call.query.get('end_date')).toBe(end);
    const shown = `${dayjs(start).format('MMM DD YYYY')} – ${dayjs(end).format('MMM DD YYYY')}`;
    expect(screen.getByRole('button', { name: /Date range/ })).toHaveTextContent(shown);
  });

  it('searches after the user stops typing', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Manager');
    await screen.findByRole('table');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or email' }), 'bob');
    await waitFor(() => expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument(), {
      timeout: 2000,
    });
    const queries = fetch.callsTo('GET /api/organizations/10/users').map((c) => c.query.get('query'));
    expect(queries).toEqual([null, 'bob']);
  });

  it('gives a Manager no Add-user button and no remove action', async () => {
    asRole('Manager');
    await screen.findByRole('table');
    expect(screen.queryByRole('link', { name: 'Add user' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove .* from the organization/ })).not.toBeInTheDocument();
  });

  it('gives an Admin the Add-user button', async () => {
    asRole('Admin');
    expect(await screen.findByRole('link', { name: 'Add user' })).toHaveAttribute(
      'href',
      '/organization/admin-panel/new',
    );
    await expectPageExists(App, '/organization/admin-panel/new', { mount: '/organization' });
  });

  it('tells a Member they have no access, without asking for the users', async () => {
    const { fetch } = asRole('Member');
    expect(await screen.findByText("You don't have access")).toBeInTheDocument();
    expect(
      screen.getByText('Only Managers and Admins of this organization can see its users.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/organizations/10/users')).toHaveLength(0);
  });

  it('asks to choose an organization when Personal is current', async () => {
    renderOrg('/organization/admin-panel', {
      user: userIn(null),
      memberships: [membership(10, 'Acme', 'Admin')],
    });
    expect(await screen.findByText('Choose an organization to manage its users.')).toBeInTheDocument();
  });

  it('opens the user detail from a row', async () => {
    const user = userEvent.setup();
    asRole('Admin', '/organization/admin-panel', {
      'GET /api/user-organizations/501': { body: { user_organization: membershipOf(ada) } },
    });
    await user.click(await screen.findByText('ada@example.com'));
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(await screen.findByText('12,345')).toBeInTheDocument();
    expect(screen.getByText('1,234.50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change role' })).toHaveAttribute(
      'href',
      '/organization/admin-panel/501',
    );
    await expectPageExists(App, '/organization/admin-panel/501', { mount: '/organization' });
  });

  it('shows a Manager the user detail without Edit', async () => {
    asRole('Manager', '/organization/admin-panel/users/501', {
      'GET /api/user-organizations/501': { body: { user_organization: membershipOf(ada) } },
    });
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change role' })).not.toBeInTheDocument();
  });

  it('removes a user after confirmation', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/admin-panel', {
      'DELETE /api/user-organizations/502': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove Bob Builder from the organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove user' });
    expect(fetch.callsTo('DELETE /api/user-organizations/502')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('User deleted from Acme')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/user-organizations/502')).toHaveLength(1);
  });
});

describe('User form', () => {
  it('invites by email with the right body and says the invitation was sent', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/admin-panel/new', {
      'POST /api/user-organizations': {
        status: 201,
        body: {
          invitation: {
            invitation_id: 9,
            organization_id: 10,
            email: 'grace@example.com',
            user_type_id: 2,
            expires_at: '2030-01-01T00:00:00.000Z',
          },
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Invite user' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'Grace@Example.com');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Grace');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Hopper');
    await user.selectOptions(screen.getByRole('combobox', { name: 'User type' }), 'Manager');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Invitation sent to grace@example.com')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/user-organizations')[0].body).toEqual({
      organization_id: 10,
      name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      user_type_id: 2,
    });
    expect(await screen.findByRole('heading', { name: 'User administration' })).toBeInTheDocument();
  });

  it('refuses a bad email before sending', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/admin-panel/new');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Grace');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Email is invalid.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/user-organizations')).toHaveLength(0);
  });

  it('changes a member\'s role only, never their name or email, and says "Role saved"', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/admin-panel/502', {
      'GET /api/user-organizations/502': { body: { user_organization: membershipOf(bob) } },
      'PUT /api/user-organizations': {
        body: { user_organization: membershipOf({ ...bob, role: 'Manager', user_type_id: 2 }) },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Change role' })).toBeInTheDocument();
    expect(screen.getByText('Bob Builder')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'User type' }), 'Manager');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Role saved')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/user-organizations')[0].body).toEqual({
      user_organization_id: 502,
      user_type_id: 2,
    });
  });

  it('tells a Manager that only Admins add users', async () => {
    asRole('Manager', '/organization/admin-panel/new');
    expect(
      await screen.findByText('Only Admins of this organization can invite users or change roles.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
