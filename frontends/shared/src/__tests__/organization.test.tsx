import { screen } from '@testing-library/react';
import {
  chooseOrganization,
  organizationHint,
  pathOrganizationSlug,
  withoutOrganizationSlug,
  sessionStore,
  useCan,
  useOrganization,
  type Membership,
} from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';

function membership(id: number, role: 'Admin' | 'Manager' | 'Member', slug = `org-${id}`): Membership {
  const user_type_id = ({ Admin: 1, Manager: 2, Member: 3 } as const)[role];
  return {
    organization_id: id,
    name: `Org ${id}`,
    slug,
    tagline: null,
    thumbnail: null,
    domain: null,
    user_type: { user_type_id, name: role },
  };
}

const memberships = [membership(1, 'Member'), membership(2, 'Admin'), membership(3, 'Manager', 'acme')];

describe('organization choice order (000 §4)', () => {
  const base = { memberships, isStaff: false, stored: undefined, defaultOrganization: null, matched: null };

  it('prefers a slug or domain match', () => {
    const chosen = chooseOrganization({
      ...base,
      matched: memberships[2],
      stored: 1,
      defaultOrganization: 2,
    });
    expect(chosen).toMatchObject({ organization_id: 3, role: 'Manager' });
  });

  it('then the stored organization id', () => {
    expect(chooseOrganization({ ...base, stored: 1, defaultOrganization: 2 })?.organization_id).toBe(1);
  });

  it('then the user default organization', () => {
    expect(chooseOrganization({ ...base, defaultOrganization: 2 })).toMatchObject({
      organization_id: 2,
      role: 'Admin',
    });
  });

  it('else Personal', () => {
    expect(chooseOrganization(base)).toBeNull();
  });

  it('keeps an explicit Personal choice over the default organization', () => {
    expect(chooseOrganization({ ...base, stored: 'personal', defaultOrganization: 2 })).toBeNull();
  });

  it('skips organizations the user does not belong to (unless staff)', () => {
    const stranger = { ...membership(9, 'Member') };
    expect(
      chooseOrganization({ ...base, matched: stranger, stored: 99, defaultOrganization: 98 }),
    ).toBeNull();
    expect(chooseOrganization({ ...base, matched: stranger, isStaff: true })).toMatchObject({
      organization_id: 9,
      role: null,
    });
  });

  it('reads the slug from ?org= and the domain from a foreign host name', () => {
    expect(organizationHint({ search: '?org=acme', hostname: 'app.example.com' }, 'app.example.com')).toEqual(
      {
        slug: 'acme',
      },
    );
    expect(organizationHint({ search: '', hostname: 'acme.example.org' }, 'https://app.example.com')).toEqual(
      {
        domain: 'acme.example.org',
      },
    );
    expect(
      organizationHint({ search: '', hostname: 'app.example.com' }, 'https://app.example.com'),
    ).toBeNull();
    expect(organizationHint({ search: '', hostname: 'localhost' }, null)).toBeNull();
  });
});

function Probe() {
  const { current } = useOrganization();
  const canAdminPanel = useCan('organization.adminPanel');
  return (
    <p>
      scope: {current ? current.name : 'Personal'}; admin panel: {String(canAdminPanel)}
    </p>
  );
}

describe('the organization in the path', () => {
  it('reads a slug leading the path, never one of the app routes', () => {
    expect(pathOrganizationSlug('/acme/conversations')).toBe('acme');
    expect(pathOrganizationSlug('/twin-co-2')).toBe('twin-co-2');
    expect(pathOrganizationSlug('/conversations/4')).toBeNull();
    expect(pathOrganizationSlug('/organization/campaigns')).toBeNull();
    expect(pathOrganizationSlug('/')).toBeNull();
    expect(pathOrganizationSlug('/Acme/x')).toBeNull();
    expect(withoutOrganizationSlug('/acme/conversations/4', 'acme')).toBe('/conversations/4');
    expect(withoutOrganizationSlug('/acme', 'acme')).toBe('/');
  });
});

describe('OrganizationProvider', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    sessionStore.setOrganizationId(null);
  });

  it('chooses the organization named by ?org= and scopes every request to it', async () => {
    window.history.replaceState(null, '', '/?org=acme');
    const { fetch } = renderWithProviders(<Probe />, {
      user: testUser({ default_organization: 1 }),
      memberships,
      routes: { 'GET /api/organizations/lookup': { body: { organization: memberships[2] } } },
    });
    expect(await screen.findByText('scope: Org 3; admin panel: true')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/organizations/lookup')[0].query.get('slug')).toBe('acme');
    expect(sessionStore.getOrganizationId()).toBe(3);
  });

  it('takes the scope from /{org_slug}/... and leaves the rest of the path', async () => {
    window.history.replaceState(null, '', '/acme/templates?x=1');
    const { fetch } = renderWithProviders(<Probe />, {
      user: testUser({ default_organization: 1 }),
      memberships,
      routes: { 'GET /api/organizations/lookup': { body: { organization: memberships[2] } } },
    });
    expect(await screen.findByText('scope: Org 3; admin panel: true')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/organizations/lookup')[0].query.get('slug')).toBe('acme');
    expect(window.location.pathname + window.location.search).toBe('/templates?x=1');
  });

  it('leaves a path whose first segment is no organization as it is', async () => {
    window.history.replaceState(null, '', '/nobody/templates');
    renderWithProviders(<Probe />, {
      user: testUser({ default_organization: 1 }),
      memberships,
      routes: {
        'GET /api/organizations/lookup': { status: 404, body: { message: 'Organization not found.' } },
      },
    });
    expect(await screen.findByText('scope: Org 1; admin panel: false')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/nobody/templates');
  });

  it('falls back to the user default organization', async () => {
    renderWithProviders(<Probe />, { user: testUser({ default_organization: 1 }), memberships });
    expect(await screen.findByText('scope: Org 1; admin panel: false')).toBeInTheDocument();
  });

  it('uses Personal when the user has no organization', async () => {
    renderWithProviders(<Probe />, { user: testUser() });
    expect(await screen.findByText('scope: Personal; admin panel: false')).toBeInTheDocument();
  });
});
