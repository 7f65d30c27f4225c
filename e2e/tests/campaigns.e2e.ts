import {
  adminCredentials,
  apiCall,
  login,
  signUpViaApi,
  type NewUser,
  type SessionPair,
} from '../support/api';
import { expectAccessible } from '../support/axe';
import { markEmailVerified } from '../support/server';
import { label, signInViaApi, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

/** Invites the user into the organization with the role and accepts as them (verified, as the emailed link does). */
async function join(
  admin: SessionPair,
  organization_id: number,
  user: NewUser & { session: SessionPair },
  user_type_id: 2 | 3,
): Promise<void> {
  await markEmailVerified(user.email);
  const { invitation } = await apiCall<{ invitation: { invitation_id: number } }>(
    'POST',
    '/api/user-organizations',
    { organization_id, name: user.name, email: user.email, user_type_id },
    admin.access_token,
  );
  await apiCall(
    'POST',
    `/api/organization-invitations/${invitation.invitation_id}/accept`,
    {},
    (await login(user)).access_token,
  );
}

describe('campaigns', () => {
  test('a Manager makes a campaign with a document and a template, gives it to a group, and its Member sees them', async ({
    page,
    browser,
  }) => {
    const admin = await login(adminCredentials());
    const orgName = `Campaign Org ${Date.now().toString(36)}`;
    const { organization } = await apiCall<{ organization: { organization_id: number } }>(
      'POST',
      '/api/organizations',
      { name: orgName },
      admin.access_token,
    );
    const orgId = organization.organization_id;
    const manager = await signUpViaApi('manager');
    const member = await signUpViaApi('member');
    await join(admin, orgId, manager, 2);
    await join(admin, orgId, member, 3);
    const managerToken = (await login(manager)).access_token;
    await apiCall(
      'POST',
      `/api/documents?organization_id=${orgId}`,
      { name: 'Launch brief', content: 'Plan' },
      managerToken,
    );
    await apiCall(
      'POST',
      `/api/templates?organization_id=${orgId}`,
      { name: 'Launch pitch', description: 'Pitch', content: 'Write a pitch' },
      managerToken,
    );
    const { group } = await apiCall<{ group: { group_id: number } }>(
      'POST',
      '/api/groups',
      { name: 'Launch team', organization_id: orgId },
      managerToken,
    );
    await apiCall(
      'POST',
      `/api/groups/users/${group.group_id}/${member.session.user.user_id}`,
      {},
      managerToken,
    );

    // The Manager, in the browser, in the organization.
    await page.addInitScript((id) => localStorage.setItem('organization_id', String(id)), orgId);
    await signInViaApi(page, manager, '/organization/campaigns');
    await page.getByRole('heading', { name: 'Campaigns', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create campaign', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Create campaign' });
    await form.getByLabel(label('Name')).fill('Spring launch');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Campaign saved.', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Open Spring launch', exact: true }).click();
    await page.getByRole('heading', { name: 'Spring launch', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    let picker = page.getByRole('dialog', { name: 'Add to campaign' });
    await picker.getByRole('button', { name: 'Add Launch brief', exact: true }).click();
    await page.getByText('Added to the campaign.', { exact: true }).first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Open Launch brief', exact: true }).waitFor();

    await page.getByRole('main').getByText('Templates', { exact: true }).click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    picker = page.getByRole('dialog', { name: 'Add to campaign' });
    await picker.getByRole('button', { name: 'Add Launch pitch', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Open Launch pitch', exact: true }).waitFor();

    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('button', { name: 'Add group', exact: true }).click();
    const give = page.getByRole('dialog', { name: 'Add group' });
    await give.getByLabel(label('Group')).click();
    await page.getByRole('option', { name: 'Launch team', exact: true }).click();
    await give.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Access given.', { exact: true }).waitFor();
    await page.getByRole('table', { name: 'Groups' }).getByText('Launch team', { exact: true }).waitFor();

    // The Member of the group, in a browser of their own.
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
    let documentPath = '';
    try {
      const memberPage = await context.newPage();
      memberPage.setDefaultTimeout(15_000);
      await memberPage.addInitScript((id) => localStorage.setItem('organization_id', String(id)), orgId);
      await signInViaApi(memberPage, member, '/organization/campaigns');
      await memberPage.getByRole('link', { name: 'Open Spring launch', exact: true }).click();
      await memberPage.getByRole('link', { name: 'Open Launch brief', exact: true }).waitFor();
      expect(await memberPage.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
      // The campaign's document opens in the editor, read only for someone who did not make it.
      await memberPage.getByRole('link', { name: 'Open Launch brief', exact: true }).click();
      await memberPage.waitForURL(/\/campaign\/\d+\/documents\/\d+$/);
      documentPath = new URL(memberPage.url()).pathname;
      await memberPage.getByRole('heading', { name: 'Launch brief', exact: true }).waitFor();
      await memberPage.locator('.bn-editor').getByText('Plan', { exact: true }).waitFor();
      expect(await memberPage.locator('.bn-editor[contenteditable="true"]').count()).toBe(0);
      expect(await memberPage.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
      await expectAccessible(memberPage, "a campaign's document (read only)");
      await memberPage.getByRole('link', { name: 'Campaign: Spring launch', exact: true }).click();
      await memberPage.getByRole('link', { name: 'Open Launch brief', exact: true }).waitFor();
      await memberPage.getByRole('main').getByText('Templates', { exact: true }).click();
      await memberPage.getByRole('link', { name: 'Open Launch pitch', exact: true }).waitFor();
    } finally {
      await context.close();
    }

    // Its maker opens the same document editable, with the editor's controls.
    await page.goto(documentPath);
    await page.locator('.bn-editor[contenteditable="true"]').getByText('Plan', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    await expectAccessible(page, "a campaign's document (its maker, editable)");
  }, 120_000);
});
