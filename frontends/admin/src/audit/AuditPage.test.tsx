import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, type MockCall } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { en, es } from '../i18n';
import { SignedIn, pick, staffAdmin } from '../common/testing';
import { AuditPage as Page } from './AuditPage';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });

const AuditPage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

const event = {
  audit_event_id: '77',
  action: 'purchase.created',
  actor_user_id: 1,
  actor_email: 'ada@example.com',
  actor_staff_role: 'admin',
  target_user_id: 10,
  target_type: 'purchase',
  target_id: '5',
  organization_id: null,
  ip: null,
  user_agent: null,
  details: { gift: true },
  createdAt: '2026-03-04T12:00:00.000Z',
};
const routes = {
  'GET /api/audit-events': { body: { audit_events: [event], total: 1, page: 1, limit: 50 } },
};
const calls = (all: MockCall[]) => all.filter((c) => c.method === 'GET' && c.path === '/api/audit-events');

describe('Audit log', () => {
  it('shows who did what to whom, with details', async () => {
    renderWithProviders(<AuditPage />, { user: staffAdmin, routes });
    // The action filter lists every action too: the record is the one inside a table row.
    await screen.findByText('1 records');
    const row = screen
      .getAllByText('purchase.created')
      .map((el) => el.closest('tr'))
      .find(Boolean)!;
    expect(within(row).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(row).getByText('User 1 · admin')).toBeInTheDocument();
    expect(within(row).getByText('purchase 5')).toBeInTheDocument();
    expect(within(row).getByText('User 10')).toBeInTheDocument();
    expect(within(row).getByText('{"gift":true}')).toBeInTheDocument();
  });

  it('filters by actor, target and action', async () => {
    const { fetch } = renderWithProviders(<AuditPage />, { user: staffAdmin, routes });
    const ui = userEvent.setup();
    await screen.findByText('1 records');
    await ui.type(screen.getByRole('textbox', { name: 'Actor (user ID)' }), '1');
    await ui.type(screen.getByRole('textbox', { name: 'Target (user ID)' }), '10');
    await waitFor(() => expect(calls(fetch.calls).at(-1)!.query.get('target_user_id')).toBe('10'));
    expect(calls(fetch.calls).at(-1)!.query.get('actor_user_id')).toBe('1');
    await pick(ui, screen.getByRole('textbox', { name: 'Action' }), 'purchase.status_changed');
    await waitFor(() =>
      expect(calls(fetch.calls).at(-1)!.query.get('action')).toBe('purchase.status_changed'),
    );
    expect(calls(fetch.calls).at(-1)!.query.get('page')).toBe('1');
  });
});
