import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MockCall } from '@avatar-studio/shared/testing';
import type { Campaign, CampaignDetail } from '../api';
import {
  membership,
  renderOrg,
  resetNotifications,
  userIn,
  type Role,
} from '../../organizations/__tests__/render';

afterEach(resetNotifications);

const launch: Campaign = {
  campaign_id: 7,
  organization_id: 10,
  user_id: 42,
  user: { user_id: 42, name: 'Max', last_name: 'Manager' },
  name: 'Launch',
  description: 'Spring launch',
  thumbnail: '/api/files/content/abc.png',
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-02T10:00:00.000Z',
};
const plain: Campaign = { ...launch, campaign_id: 8, name: 'Plain', thumbnail: null };

const detail: CampaignDetail = {
  ...launch,
  campaign_users: [{ user_id: 43, name: 'Meg', last_name: 'Member', email: 'meg@example.com' }],
  campaign_groups: [{ group_id: 5, name: 'Readers' }],
};

function listReply(call: MockCall) {
  const query = call.query.get('query');
  const campaigns = [launch, plain].filter((c) => !query || c.name.toLowerCase().includes(query));
  return { body: { campaigns, total: campaigns.length, page: 1, limit: 200 } };
}

function asRole(role: Role, route: string, routes = {}) {
  return renderOrg(route, {
    user: userIn(10),
    memberships: [membership(10, 'Acme', role)],
    routes: {
      'GET /api/campaigns/organization/10': listReply,
      'GET /api/campaigns/7': { body: { campaign: detail } },
      ...routes,
    },
  });
}

describe('Campaign list', () => {
  it('shows cards with thumbnail or placeholder, name, owner and Open', async () => {
    asRole('Member', '/organization/campaigns');
    const card = await screen.findByRole('article', { name: 'Launch' });
    expect(within(card).getByRole('img', { name: 'Thumbnail of Launch' })).toHaveAttribute(
      'src',
      '/api/files/content/abc.png',
    );
    expect(within(card).getByText('By Max Manager')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Open Launch' })).toHaveAttribute(
      'href',
      '/organization/campaigns/7',
    );
    const other = screen.getByRole('article', { name: 'Plain' });
    expect(within(other).getByRole('img', { name: 'No thumbnail' })).toBeInTheDocument();
    // A Member neither creates nor manages.
    expect(screen.queryByRole('button', { name: 'Create campaign' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for Launch' })).not.toBeInTheDocument();
  });

  it('searches and sorts through the API', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Manager', '/organization/campaigns');
    await screen.findByRole('article', { name: 'Launch' });
    await user.type(screen.getByRole('searchbox', { name: 'Search campaigns' }), 'pla');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Launch' })).not.toBeInTheDocument(), {
      timeout: 2000,
    });
    await user.click(screen.getByRole('textbox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'A-Z' }));
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/campaigns/organization/10').at(-1)?.query.get('sortBy')).toBe(
        'name_asc',
      ),
    );
    const first = fetch.callsTo('GET /api/campaigns/organization/10')[0];
    expect(first.query.get('sortBy')).toBe('createdAt_desc');
  });

  it('lets a Manager create a campaign as a multipart form', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Manager', '/organization/campaigns', {
      'POST /api/campaigns': { status: 201, body: { campaign: detail } },
    });
    await user.click(await screen.findByRole('button', { name: 'Create campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create campaign' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please add a name to your campaign')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/campaigns')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Summer');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Campaign saved.')).toBeInTheDocument();
    const [call] = fetch.callsTo('POST /api/campaigns');
    expect(String(call.body)).toContain('name="name"');
    expect(String(call.body)).toContain('Summer');
    expect(String(call.body)).toContain('name="organization_id"');
  });

  it('offers Edit, Delete and Add Users in the menu, and deletes after confirmation', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/campaigns', {
      'DELETE /api/campaigns/campaign/7': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Actions for Launch' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit Campaign' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Add Users' })).toHaveAttribute(
      'href',
      '/organization/campaigns/7/users',
    );
    await user.click(screen.getByRole('menuitem', { name: 'Delete Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete campaign' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Campaign deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/campaigns/campaign/7')).toHaveLength(1);
  });

  it("says 'Please select an organization' in Personal", async () => {
    renderOrg('/organization/campaigns', {
      user: userIn(null),
      memberships: [membership(10, 'Acme', 'Admin')],
    });
    expect(await screen.findByText('Please select an organization')).toBeInTheDocument();
  });
});

describe('Campaign detail', () => {
  const resources = (call: MockCall) =>
    call.query.get('resources') === 'templates'
      ? {
          body: {
            resources: [
              {
                campaign_id: 7,
                resource_id: 3,
                type: 'template',
                template: { template_id: 3, name: 'Pitch', updatedAt: '' },
              },
            ],
            total: 1,
          },
        }
      : {
          body: {
            resources: [
              {
                campaign_id: 7,
                resource_id: 9,
                type: 'document',
                document: { document_id: 9, name: 'Brief', updatedAt: '' },
              },
            ],
            total: 1,
          },
        };

  it('toggles documents and templates, each opening where the spec says', async () => {
    const user = userEvent.setup();
    asRole('Member', '/organization/campaigns/7', { 'GET /api/campaigns/7/resources': resources });
    expect(await screen.findByRole('link', { name: 'Open Brief' })).toHaveAttribute(
      'href',
      '/campaign/7/documents/9',
    );
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Brief from the campaign' })).not.toBeInTheDocument();
    await user.click(screen.getByText('Templates'));
    expect(await screen.findByRole('link', { name: 'Open Pitch' })).toHaveAttribute(
      'href',
      '/templates/edit-template/3',
    );
  });

  it('lets a Manager add a document and remove one', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Manager', '/organization/campaigns/7', {
      'GET /api/campaigns/7/resources': resources,
      'GET /api/documents': {
        body: {
          documents: [
            {
              document_id: 9,
              name: 'Brief',
              user_id: 42,
              organization_id: 10,
              content: '',
              createdAt: '',
              updatedAt: '',
            },
            {
              document_id: 11,
              name: 'Notes',
              user_id: 42,
              organization_id: 10,
              content: '',
              createdAt: '',
              updatedAt: '',
            },
          ],
          total: 2,
          page: 1,
          limit: 50,
        },
      },
      'POST /api/campaigns/campaign-resource': {
        status: 201,
        body: { campaign_id: 7, resource_id: 11, type: 'document' },
      },
      'DELETE /api/campaigns/campaign-resource/document/9/7': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to campaign' });
    // Already in the campaign: not offered.
    expect(within(dialog).queryByRole('button', { name: 'Add Brief' })).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: 'Add Notes' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/campaigns/campaign-resource')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/campaigns/campaign-resource')[0].body).toEqual({
      resource_id: 11,
      type: 'document',
      campaign_id: 7,
    });
    await user.keyboard('{Escape}');
    await user.click(await screen.findByRole('button', { name: 'Remove Brief from the campaign' }));
    await waitFor(() =>
      expect(fetch.callsTo('DELETE /api/campaigns/campaign-resource/document/9/7')).toHaveLength(1),
    );
  });

  it('explains a campaign that is not visible', async () => {
    asRole('Member', '/organization/campaigns/99');
    expect(
      (await screen.findAllByText('This campaign does not exist or is not shared with you.')).length,
    ).toBeGreaterThan(0);
  });
});

describe('Campaign users', () => {
  it('lists users and groups and revokes', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Manager', '/organization/campaigns/7/users', {
      'POST /api/campaigns/revoke-access/7': { body: { campaign: { ...detail, campaign_users: [] } } },
    });
    const users = await screen.findByRole('table', { name: 'Users' });
    expect(within(users).getByText('Meg Member')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Groups' })).getByText('Readers')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke access of Meg Member' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/campaigns/revoke-access/7')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/campaigns/revoke-access/7')[0].body).toEqual({ user_id: 43 });
  });

  it('gives a group not given yet, Add only once one is chosen', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/campaigns/7/users', {
      'GET /api/groups/organization/10': {
        body: {
          groups: [
            { group_id: 5, organization_id: 10, name: 'Readers', users: 1, createdAt: '', updatedAt: '' },
            { group_id: 6, organization_id: 10, name: 'Writers', users: 2, createdAt: '', updatedAt: '' },
          ],
          total: 2,
          page: 1,
          limit: 200,
        },
      },
      'GET /api/organizations/10/users': { body: { users: [], total: 0, page: 1, limit: 200 } },
      'POST /api/campaigns/give-access/7': { body: { campaign: detail } },
    });
    await user.click(await screen.findByRole('button', { name: 'Add group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add group' });
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeDisabled();
    await user.click(within(dialog).getByRole('textbox', { name: 'Group' }));
    expect(screen.queryByRole('option', { name: 'Readers' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Writers' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Access given.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/campaigns/give-access/7')[0].body).toEqual({ group_id: 6 });
  });
});
