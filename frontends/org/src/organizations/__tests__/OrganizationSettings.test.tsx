import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrganizationView } from '../api';
import { membership, renderOrg, resetNotifications, staff, userIn, type Role } from './render';

afterEach(resetNotifications);

const MASK = '••••••••';

function organizationView(role: Role | null, overrides: Partial<OrganizationView> = {}): OrganizationView {
  return {
    organization_id: 10,
    name: 'Acme',
    slug: 'acme',
    tagline: 'Rockets and more',
    thumbnail: null,
    welcome_video: 'https://videos.example.com/welcome.mp4',
    domain: 'app.acme.com',
    stripe_public: 'pk_test_123',
    stripe_secret: `${MASK}4242`,
    stripe_webhook_secret: `${MASK}abcd`,
    openai_api_key: `${MASK}wxyz`,
    user_type: role
      ? { user_type_id: ({ Admin: 1, Manager: 2, Member: 3 } as const)[role], name: role }
      : null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

describe('Organization settings', () => {
  it('lets staff create an organization and says it was saved', async () => {
    const user = userEvent.setup();
    const created = organizationView('Admin', {
      organization_id: 77,
      name: 'Umbrella',
      tagline: 'We care',
      welcome_video: null,
      domain: null,
      stripe_public: null,
      stripe_secret: null,
      stripe_webhook_secret: null,
      openai_api_key: null,
    });
    const { fetch } = renderOrg('/organizations/organization-settings', {
      user: userIn(null, staff('manager')),
      routes: {
        'POST /api/organizations': { status: 201, body: { organization: created } },
        'GET /api/organizations/77': { body: { organization: created } },
      },
    });

    expect(await screen.findByRole('heading', { name: 'Create organization' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Umbrella');
    await user.type(screen.getByRole('textbox', { name: 'Tagline' }), 'We care');
    await user.type(screen.getByRole('textbox', { name: 'OpenAI API key' }), 'sk-live-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Organization saved.')).toBeInTheDocument();
    const [post] = fetch.callsTo('POST /api/organizations');
    expect(post.body).toEqual({
      name: 'Umbrella',
      tagline: 'We care',
      thumbnail: '',
      welcome_video: '',
      domain: '',
      stripe_public: '',
      openai_api_key: 'sk-live-1',
    });
    // Now editing the new organization.
    expect(await screen.findByRole('heading', { name: 'Organization settings' })).toBeInTheDocument();
  });

  it('tells a customer that only staff create organizations', async () => {
    renderOrg('/organizations/organization-settings', { user: userIn(null) });
    expect(await screen.findByText("You don't have access")).toBeInTheDocument();
    expect(screen.getByText('Only staff can create organizations.')).toBeInTheDocument();
  });

  it('asks for a name before saving', async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations/organization-settings/10', {
      user: userIn(10),
      memberships: [membership(10, 'Acme', 'Admin')],
      routes: { 'GET /api/organizations/10': { body: { organization: organizationView('Admin') } } },
    });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Acme');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findAllByText('Please add a name to your organization')).length).toBeGreaterThan(0);
    expect(fetch.callsTo('PUT /api/organizations')).toHaveLength(0);
  });

  it("refuses a slug that is one of the app's routes before saving, and sends a changed one", async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations/organization-settings/10', {
      user: userIn(10),
      memberships: [membership(10, 'Acme', 'Admin')],
      routes: {
        'GET /api/organizations/10': { body: { organization: organizationView('Admin') } },
        'PUT /api/organizations': {
          body: {
            organization: organizationView('Admin', { slug: 'acme-rockets', updatedAt: '2025-03-01' }),
          },
        },
      },
    });
    const slug = await screen.findByRole('textbox', { name: 'Address (slug)' });
    expect(slug).toHaveValue('acme');
    await user.clear(slug);
    await user.type(slug, 'pricing');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const reserved =
      '"pricing" is one of the app\'s own addresses, so it cannot name an organization. Choose another slug.';
    expect((await screen.findAllByText(reserved)).length).toBeGreaterThan(0);
    expect(fetch.callsTo('PUT /api/organizations')).toHaveLength(0);

    await user.clear(slug);
    await user.type(slug, 'acme-rockets');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Organization saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/organizations')[0].body).toMatchObject({ slug: 'acme-rockets' });
  });

  it('keeps untouched secrets (not sent) and sends a changed one', async () => {
    const user = userEvent.setup();
    const saved = organizationView('Admin', {
      openai_api_key: `${MASK}9999`,
      updatedAt: '2025-02-01T00:00:00.000Z',
    });
    const { fetch } = renderOrg('/organizations/organization-settings/10', {
      user: userIn(10),
      memberships: [membership(10, 'Acme', 'Admin')],
      routes: {
        'GET /api/organizations/10': { body: { organization: organizationView('Admin') } },
        'PUT /api/organizations': { body: { organization: saved } },
      },
    });

    // The secrets show masked.
    expect(await screen.findByRole('textbox', { name: 'Stripe secret key' })).toHaveValue(`${MASK}4242`);
    expect(screen.getByRole('textbox', { name: 'Stripe webhook secret' })).toHaveValue(`${MASK}abcd`);
    const openai = screen.getByRole('textbox', { name: 'OpenAI API key' });
    await user.clear(openai);
    await user.type(openai, 'sk-new-key-9999');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Organization saved.')).toBeInTheDocument();
    const [put] = fetch.callsTo('PUT /api/organizations');
    expect(put.body).toEqual({
      organization_id: 10,
      name: 'Acme',
      tagline: 'Rockets and more',
      thumbnail: '',
      welcome_video: 'https://videos.example.com/welcome.mp4',
      domain: 'app.acme.com',
      stripe_public: 'pk_test_123',
      openai_api_key: 'sk-new-key-9999',
    });
    // The form starts again from the server's answer.
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'OpenAI API key' })).toHaveValue(`${MASK}9999`),
    );
  });

  it('removes a secret the user emptied', async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations/organization-settings/10', {
      user: userIn(10),
      memberships: [membership(10, 'Acme', 'Admin')],
      routes: {
        'GET /api/organizations/10': { body: { organization: organizationView('Admin') } },
        'PUT /api/organizations': {
          body: { organization: organizationView('Admin', { stripe_secret: null }) },
        },
      },
    });
    await user.clear(await screen.findByRole('textbox', { name: 'Stripe secret key' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Organization saved.');
    const body = fetch.callsTo('PUT /api/organizations')[0].body as Record<string, unknown>;
    expect(body.stripe_secret).toBe('');
    expect(body).not.toHaveProperty('openai_api_key');
    expect(body).not.toHaveProperty('stripe_webhook_secret');
  });

  it('uploads a thumbnail and stores the returned src', async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations/organization-settings/10', {
      user: userIn(10),
      memberships: [membership(10, 'Acme', 'Admin')],
      routes: {
        'GET /api/organizations/10': { body: { organization: organizationView('Admin') } },
        'POST /api/files': { status: 201, body: { file: { src: '/api/files/content/logo.png' } } },
        'PUT /api/organizations': { body: { organization: organizationView('Admin') } },
      },
    });
    await screen.findByRole('button', { name: 'Upload image' });
    const input = document.querySelector('input[type="file"][accept="image/*"]') as HTMLInputElement;
    await user.upload(input, new File(['png'], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Thumbnail' })).toHaveAttribute(
      'src',
      '/api/files/content/logo.png',
    );
    expect(String(fetch.callsTo('POST /api/files')[0].body)).toContain('name="file"; filename="logo.png"');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Organization saved.');
    expect((fetch.callsTo('PUT /api/organizations')[0].body as { thumbnail: string }).thumbnail).toBe(
      '/api/files/content/logo.png',
    );
  });

  it('shows a Manager the settings read-only, without Save or Delete', async () => {
    renderOrg('/organizations/organization-settings/10', {
      user: userIn(10),
      memberships: [membership(10, 'Acme', 'Manager')],
      routes: { 'GET /api/organizations/10': { body: { organization: organizationView('Manager') } } },
    });
    expect(
      await screen.findByText('Only Admins of this organization can change its settings.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete organization' })).not.toBeInTheDocument();
  });

  describe('delete', () => {
    const setup = (deleteReply?: { status: number; body?: unknown }) => {
      const user = userEvent.setup();
      const rendered = renderOrg('/organizations/organization-settings/10', {
        user: userIn(10),
        memberships: [membership(10, 'Acme', 'Admin')],
        routes: {
          'GET /api/organizations/10': { body: { organization: organizationView('Admin') } },
          'DELETE /api/organizations/10': deleteReply ?? { status: 204 },
        },
      });
      return { user, ...rendered };
    };

    it('aborts when the typed name does not match', async () => {
      const { user, fetch } = setup();
      await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete organization' });
      await user.type(within(dialog).getByRole('textbox', { name: 'Organization name' }), 'acme');
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

      expect(
        await screen.findByText('Organization name does not match. Deletion aborted.'),
      ).toBeInTheDocument();
      expect(fetch.callsTo('DELETE /api/organizations/10')).toHaveLength(0);
    });

    it("shows the server's message when it refuses the name", async () => {
      const { user } = setup({
        status: 400,
        body: {
          statusCode: 400,
          message: 'Organization name does not match. Deletion aborted.',
          error: 'Bad Request',
          code: 'name_mismatch',
        },
      });
      await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete organization' });
      await user.type(within(dialog).getByRole('textbox', { name: 'Organization name' }), 'Acme');
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(
        await screen.findByText('Organization name does not match. Deletion aborted.'),
      ).toBeInTheDocument();
    });

    it('deletes with the typed name and says so', async () => {
      const { user, fetch } = setup();
      await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete organization' });
      await user.type(within(dialog).getByRole('textbox', { name: 'Organization name' }), 'Acme');
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

      expect(await screen.findByText('Organization deleted.')).toBeInTheDocument();
      expect(fetch.callsTo('DELETE /api/organizations/10')[0].query.get('name')).toBe('Acme');
      expect(await screen.findByRole('heading', { name: 'My organizations' })).toBeInTheDocument();
    });
  });
});
