import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MockCall } from '@avatar-studio/shared/testing';
import type { GroupDetail, GroupRow } from '../api';
import {
  membership,
  renderOrg,
  resetNotifications,
  userIn,
  type Role,
} from '../../organizations/__tests__/render';

afterEach(resetNotifications);

const readers: GroupRow = {
  group_id: 5,
  organization_id: 10,
  name: 'Readers',
  users: 1,
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:00:00.000Z',
};
const readersDetail: GroupDetail = {
  ...readers,
  group_users: [
    { user_id: 43, user: { user_id: 43, name: 'Meg', last_name: 'Member', email: 'meg@example.com' } },
  ],
};
const memberRow = (user_id: number, name: string, email: string) => ({
  user_organization_id: 500 + user_id,
  user_id,
  name,
  last_name: '',
  email,
  role: 'Member',
  user_type_id: 3,
  total_words: 0,
  last_used: null,
  ltv: 0,
});

function listReply(call: MockCall) {
  const query = call.query.get('query');
  const groups = [readers].filter((g) => !query || g.name.toLowerCase().includes(query));
  return { body: { groups, total: groups.length, page: 1, limit: 200 } };
}

function asRole(role: Role, route: string, routes = {}) {
  return renderOrg(route, {
    user: userIn(10),
    memberships: [membership(10, 'Acme', role)],
    routes: {
      'GET /api/groups/organization/10': listReply,
      'GET /api/groups/5': { body: { group: readersDetail } },
      ...routes,
    },
  });
}

describe('Groups list', () => {
  it('lists groups with member counts and searches', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Manager', '/organization/groups');
    expect(await screen.findByRole('link', { name: 'View members of Readers' })).toHaveAttribute(
      'href',
      '/organization/groups/5',
    );
    await user.type(screen.getByRole('searchbox', { name: 'Search groups' }), 'zz');
    expect(await screen.findByText('No groups yet.', {}, { timeout: 2000 })).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/groups/organization/10').map((c) => c.query.get('query'))).toEqual([
      null,
      'zz',
    ]);
  });

  it('creates, renames and deletes a group', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/groups', {
      'POST /api/groups': {
        status: 201,
        body: { group: { ...readersDetail, group_id: 6, name: 'Writers' } },
      },
      'PUT /api/groups': { body: { group: { ...readersDetail, name: 'Editors' } } },
      'DELETE /api/groups/5': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Create group' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create group' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Please add a name to your group')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Writers');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/groups')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/groups')[0].body).toEqual({ name: 'Writers', organization_id: 10 });

    await user.click(await screen.findByRole('button', { name: 'Edit Readers' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit group' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Editors');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/groups')).toHaveLength(1));
    expect(fetch.callsTo('PUT /api/groups')[0].body).toEqual({ group_id: 5, name: 'Editors' });

    await user.click(await screen.findByRole('button', { name: 'Delete Readers' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete group' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Group deleted.')).toBeInTheDocument();
  });

  it('tells a Member they have no access, without asking for groups', async () => {
    const { fetch } = asRole('Member', '/organization/groups');
    expect(
      await screen.findByText('Only Managers and Admins of this organization manage its groups.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/groups/organization/10')).toHaveLength(0);
  });
});

describe('Group detail', () => {
  it('adds users: candidates exclude members, Add only with a selection', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Manager', '/organization/groups/5', {
      'GET /api/organizations/10/users': {
        body: {
          users: [memberRow(43, 'Meg', 'meg@example.com'), memberRow(44, 'Ned', 'ned@example.com')],
          total: 2,
          page: 1,
          limit: 200,
        },
      },
      'POST /api/groups/users/5/44': { status: 201, body: { group: readersDetail } },
    });
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(within(table).getByRole('link', { name: 'Meg Member' })).toHaveAttribute(
      'href',
      '/organization/groups/5/users/43',
    );
    await user.click(screen.getByRole('button', { name: 'Add users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add users' });
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await user.click(await within(dialog).findByRole('textbox', { name: 'Users' }));
    expect(screen.queryByRole('option', { name: /Meg/ })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: /Ned/ }));
    expect(add).toBeEnabled();
    await user.click(add);
    expect(await screen.findByText('Users added.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/groups/users/5/44')).toHaveLength(1);
  });

  it('removes a member', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/groups/5', {
      'DELETE /api/groups/users/5/43': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove Meg Member from the group' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/groups/users/5/43')).toHaveLength(1));
  });

  it('shows one member of the group', async () => {
    asRole('Manager', '/organization/groups/5/users/43');
    expect(await screen.findByText('meg@example.com')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Group member' })).toBeInTheDocument();
  });
});
