import { STAFF_SCOPE_CONFIRM_HEADER } from '@avatar-studio/contracts';
import { startTestApp, TestApp, TestUser } from './harness';

/** A staff admin enters the scope of an organization they do not belong to only after confirming it. */
describe('Staff in the scope of an organization they are not a member of', () => {
  let t: TestApp;
  let staff: TestUser;
  let organization_id: number;
  let other_org: number;

  beforeAll(async () => {
    t = await startTestApp();
    staff = await t.createUser({ staff: 'admin' });
    organization_id = await t.createOrganization('Foreign');
    other_org = await t.createOrganization('Other');
  });
  afterAll(() => t.close());

  const scoped = (who: TestUser, org: number) =>
    t.http().get('/api/conversations').query({ organization_id: org }).set('Authorization', who.auth);

  it('refuses an unconfirmed staff admin with 403 staff_scope_unconfirmed', async () => {
    const res = await scoped(staff, organization_id).expect(403);
    expect(res.body.code).toBe('staff_scope_unconfirmed');
  });

  it('refuses a confirmation that names another organization', async () => {
    const res = await scoped(staff, organization_id)
      .set(STAFF_SCOPE_CONFIRM_HEADER, String(other_org))
      .expect(403);
    expect(res.body.code).toBe('staff_scope_unconfirmed');
  });

  it('lets a staff admin act there once the confirmation names it, as its Admin', async () => {
    await scoped(staff, organization_id).set(STAFF_SCOPE_CONFIRM_HEADER, String(organization_id)).expect(200);
    const settings = await t
      .http()
      .get('/api/organizations/' + organization_id)
      .query({ organization_id })
      .set(STAFF_SCOPE_CONFIRM_HEADER, String(organization_id))
      .set('Authorization', staff.auth)
      .expect(200);
    expect(settings.body.organization.organization_id).toBe(organization_id);
  });

  it('needs no confirmation in an organization the staff member belongs to', async () => {
    const member = await t.createUser({ staff: 'admin' });
    await t.addMember(organization_id, member.user_id, 3);
    await scoped(member, organization_id).expect(200);
  });

  it('still answers 404 to a customer or staff manager outside the organization, confirmed or not', async () => {
    const customer = await t.createUser();
    const manager = await t.createUser({ staff: 'manager' });
    for (const who of [customer, manager]) {
      await scoped(who, organization_id).set(STAFF_SCOPE_CONFIRM_HEADER, String(organization_id)).expect(404);
    }
  });
});
