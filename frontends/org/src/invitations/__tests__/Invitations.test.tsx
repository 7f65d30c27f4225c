import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderOrg, resetNotifications, userIn } from '../../organizations/__tests__/render';
import type { MyInvitation } from '../api';

afterEach(resetNotifications);

const acme: MyInvitation = {
  invitation_id: 7,
  organization_id: 10,
  organization_name: 'Acme',
  user_type_id: 2,
  role: 'Manager',
  invited_by: 'Ada Admin',
  expires_at: '2030-03-04T10:00:00.000Z',
  createdAt: '2030-02-25T10:00:00.000Z',
};
const globex: MyInvitation = { ...acme, invitation_id: 8, organization_id: 11, organization_name: 'Globex' };

const accepted = { body: { organization_id: 10, user_organization_id: 99, user_type_id: 2 } };

describe('Invitations screen', () => {
  it('lists pending invitations with organization, role, inviter and expiry', async () => {
    renderOrg('/organizations/invitations', {
      user: userIn(null),
      routes: { 'GET /api/organization-invitations': { body: { invitations: [acme, globex] } } },
    });
    // The first render loads the lazy screen, which can be slow on a busy machine.
    const card = await screen.findByRole('listitem', { name: 'Acme' }, { timeout: 5000 });
    expect(within(card).getByText('Manager')).toBeInTheDocument();
    expect(within(card).getByText(/Invited by Ada Admin/)).toBeInTheDocument();
    expect(within(card).getByText(/expires Mar 04 2030/)).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Globex' })).toBeInTheDocument();
  });

  it('accepts one invitation and declines another from the list', async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations/invitations', {
      user: userIn(null),
      routes: {
        'GET /api/organization-invitations': { body: { invitations: [acme, globex] } },
        'POST /api/organization-invitations/7/accept': accepted,
        'POST /api/organization-invitations/8/decline': { status: 204 },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Accept the invitation of Acme' }));
    expect(await screen.findByText('You joined the organization.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Decline the invitation of Globex' }));
    expect(await screen.findByText('Invitation declined.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/organization-invitations/7/accept')).toHaveLength(1);
    expect(fetch.callsTo('POST /api/organization-invitations/8/decline')).toHaveLength(1);
  });

  it('accepts the invitation of the emailed link only when asked, sending its token', async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations/invitations?token=abc123', {
      user: userIn(null, { email: 'me@example.com' }),
      routes: {
        'GET /api/organization-invitations': { body: { invitations: [] } },
        'POST /api/organization-invitations/accept': accepted,
      },
    });
    expect(await screen.findByText('You opened an invitation to join an organization.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/organization-invitations/accept')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('You joined the organization.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/organization-invitations/accept')[0].body).toEqual({ token: 'abc123' });
    await waitFor(() =>
      expect(screen.queryByText('You opened an invitation to join an organization.')).not.toBeInTheDocument(),
    );
  });

  it('explains a link sent to another email, naming the signed-in one', async () => {
    const user = userEvent.setup();
    renderOrg('/organizations/invitations?token=abc123', {
      user: userIn(null, { email: 'me@example.com' }),
      routes: {
        'GET /api/organization-invitations': { body: { invitations: [] } },
        'POST /api/organization-invitations/accept': {
          status: 404,
          body: { statusCode: 404, code: 'invitation_not_found', message: 'not found', error: 'Not Found' },
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are signed in as me@example.com.');
  });

  it('says so when there is nothing pending', async () => {
    renderOrg('/organizations/invitations', {
      user: userIn(null),
      routes: { 'GET /api/organization-invitations': { body: { invitations: [] } } },
    });
    expect(await screen.findByText('You have no pending invitations.')).toBeInTheDocument();
  });
});
