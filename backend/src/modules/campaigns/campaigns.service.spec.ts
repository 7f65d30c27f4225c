import { can } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import { CampaignsService } from './campaigns.service';

const me: Principal = {
  user_id: 7,
  email: 'm@example.com',
  session_id: null,
  via: 'token',
  staffRole: null,
  org: null,
};
const campaign = {
  campaign_id: 3,
  organization_id: 10,
  user_id: 7,
  name: 'Launch',
  description: '',
  thumbnail: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

function build(role: 'Admin' | 'Manager' | 'Member' | 'outsider') {
  const repository = {
    findById: jest.fn().mockResolvedValue(campaign),
    findVisible: jest.fn().mockResolvedValue(campaign),
    revoke: jest.fn().mockResolvedValue(true),
    userIds: jest.fn().mockResolvedValue([]),
    groupIds: jest.fn().mockResolvedValue([]),
  };
  const access = {
    allows: can,
    standing: jest.fn(async () => {
      if (role === 'outsider')
        throw new DomainError(404, 'organization_not_found', 'Organization not found.');
      return { organization_id: 10, user_id: 7, staffRole: null, orgRole: role, membership: {} };
    }),
    isMember: jest.fn().mockResolvedValue(false),
  };
  const groups = {
    groupIdsOf: jest.fn().mockResolvedValue([4]),
    findInOrganization: jest.fn().mockResolvedValue(null),
    summaries: jest.fn().mockResolvedValue(new Map()),
  };
  const users = { summaries: jest.fn().mockResolvedValue(new Map()) };
  const service = new CampaignsService(
    repository as never,
    access as never,
    groups as never,
    users as never,
    {} as never,
    {} as never,
    {} as never,
    { run: jest.fn() } as never,
  );
  return { service, repository, groups };
}

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (e: DomainError) => `${e.status} ${e.code}`,
  );

describe('CampaignsService rules', () => {
  it('looks a campaign up with what the role lets the caller see', async () => {
    const member = build('Member');
    await member.service.get(me, 3);
    expect(member.repository.findVisible).toHaveBeenCalledWith(3, {
      user_id: 7,
      all: false,
      owned: false,
      groupIds: [4],
    });
    const manager = build('Manager');
    await manager.service.get(me, 3);
    expect(manager.repository.findVisible).toHaveBeenCalledWith(3, {
      user_id: 7,
      all: false,
      owned: true,
      groupIds: [4],
    });
    const admin = build('Admin');
    await admin.service.get(me, 3);
    expect(admin.repository.findVisible).toHaveBeenCalledWith(3, {
      user_id: 7,
      all: true,
      owned: true,
      groupIds: [],
    });
  });

  it("answers 404 for another organization's campaign and for one the caller does not see", async () => {
    expect(await status(build('outsider').service.get(me, 3))).toBe('404 campaign_not_found');
    const hidden = build('Member');
    hidden.repository.findVisible.mockResolvedValue(null);
    expect(await status(hidden.service.get(me, 3))).toBe('404 campaign_not_found');
  });

  it('lets only Managers and Admins give and revoke, and only to members and the organization’s groups', async () => {
    expect(await status(build('Member').service.revokeAccess(me, 3, { user_id: 8 }))).toBe('403 forbidden');
    expect(await status(build('Manager').service.giveAccess(me, 3, { user_id: 8 }))).toBe(
      '400 not_organization_member',
    );
    expect(await status(build('Manager').service.giveAccess(me, 3, { group_id: 99 }))).toBe(
      '404 group_not_found',
    );
    expect(await status(build('Manager').service.giveAccess(me, 3, {}))).toBe('400 bad_input');
    expect(await status(build('Manager').service.giveAccess(me, 3, { user_id: 8, group_id: 4 }))).toBe(
      '400 bad_input',
    );
    expect(await status(build('Admin').service.revokeAccess(me, 3, { group_id: 4 }))).toBe(200);
  });

  it('asks for an organization before creating, and for a campaign before adding a resource', async () => {
    const { service } = build('Manager');
    const created = await status(service.create(me, { name: 'X' }));
    expect(created).toBe('400 organization_required');
    expect(await status(service.addResource(me, { resource_id: 1, type: 'document' }, true))).toBe(
      '400 campaign_required',
    );
  });
});
