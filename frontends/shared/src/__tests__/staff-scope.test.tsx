import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import {
  api,
  sessionStore,
  StaffScopeBanner,
  unwrap,
  useOrganization,
  type Membership,
} from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';

const foreign = {
  organization_id: 77,
  name: 'Foreign Org',
  slug: 'foreign',
  tagline: null,
  thumbnail: null,
  domain: null,
} as unknown as Membership;

const staffAdmin = testUser({ staff: { staff_id: 1, user_id: 1, role: 'admin' } } as never);

/** The scope, and one scoped request (its query key is not kept across a switch). */
function Screen() {
  const { current } = useOrganization();
  useQuery({
    queryKey: ['probe', current?.organization_id ?? 0],
    queryFn: () => unwrap(api.GET('/api/conversations')),
  });
  return (
    <>
      <StaffScopeBanner />
      <p>scope: {current ? current.name : 'Personal'}</p>
    </>
  );
}

function renderStaff(user = staffAdmin, memberships: Membership[] = []) {
  window.history.replaceState(null, '', '/?org=foreign');
  return renderWithProviders(<Screen />, {
    user,
    memberships,
    routes: {
      'GET /api/organizations/lookup': { body: { organization: foreign } },
      'GET /api/conversations': { body: { conversations: [], total: 0, page: 1, limit: 20 } },
    },
  });
}

describe('Staff following ?org= to an organization they are not a member of', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    sessionStore.setOrganizationId(null);
    sessionStore.setStaffScopeConfirmed(null);
  });

  it('stays in its own scope and asks first, sending nothing scoped to that organization', async () => {
    const { fetch } = renderStaff();
    // The first render of the file warms the providers up, which can be slow on a busy machine.
    expect(
      await screen.findByText('You are not a member of Foreign Org', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('scope: Personal')).toBeInTheDocument();
    expect(sessionStore.getOrganizationId()).toBeNull();
    await waitFor(() => expect(fetch.callsTo('GET /api/conversations').length).toBeGreaterThan(0));
    for (const call of fetch.callsTo('GET /api/conversations')) {
      expect(call.query.get('organization_id')).toBeNull();
    }
  });

  it('enters the organization once confirmed, sending the confirmation header with its requests', async () => {
    const user = userEvent.setup();
    const { fetch } = renderStaff();
    await user.click(await screen.findByRole('button', { name: 'Act in Foreign Org as staff' }));
    expect(await screen.findByText('scope: Foreign Org')).toBeInTheDocument();
    expect(
      screen.getByText('You are acting in Foreign Org as staff; you are not a member.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        fetch.callsTo('GET /api/conversations').some((c) => c.query.get('organization_id') === '77'),
      ).toBe(true),
    );
    const scoped = fetch
      .callsTo('GET /api/conversations')
      .filter((c) => c.query.get('organization_id') === '77');
    for (const call of scoped) expect(call.headers.get('x-staff-scope-confirm')).toBe('77');
  });

  it('forgets the organization when the staff member stays where they are', async () => {
    const user = userEvent.setup();
    renderStaff();
    await user.click(await screen.findByRole('button', { name: 'Stay in Personal' }));
    await waitFor(() =>
      expect(screen.queryByText('You are not a member of Foreign Org')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('scope: Personal')).toBeInTheDocument();
    expect(sessionStore.getOrganizationId()).toBeNull();
  });

  it('leaves the organization from the reminder', async () => {
    const user = userEvent.setup();
    renderStaff();
    await user.click(await screen.findByRole('button', { name: 'Act in Foreign Org as staff' }));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('scope: Personal')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows nothing to a staff member who belongs to the organization', async () => {
    const member = { ...foreign, user_type: { user_type_id: 3, name: 'Member' } } as Membership;
    renderStaff(staffAdmin, [member]);
    expect(await screen.findByText('scope: Foreign Org')).toBeInTheDocument();
    expect(screen.queryByText('You are not a member of Foreign Org')).not.toBeInTheDocument();
    expect(screen.queryByText(/as staff; you are not a member/)).not.toBeInTheDocument();
  });
});
