import { adminCredentials, signUpViaApi } from '../support/api';
import { markEmailVerified } from '../support/server';
import { label, signInViaApi, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

describe('organizations (002 §2)', () => {
  test('staff create an organization and invite a Member, who accepts and sees it without the admin panel', async ({
    page,
    browser,
  }) => {
    const member = await signUpViaApi('member');
    // Only a verified address may join from the invitations list.
    await markEmailVerified(member.email);
    const orgName = `E2E Org ${Date.now().toString(36)}`;

    await signInViaApi(page, adminCredentials(), '/organizations');
    await page.getByRole('heading', { name: 'My organizations', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Create organization', exact: true }).click();
    await page.getByRole('heading', { name: 'Create organization', exact: true }).waitFor();
    await page.getByLabel(label('Name')).fill(orgName);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Organization saved.', { exact: true }).waitFor();
    await page.waitForURL(/\/organizations\/organization-settings\/\d+$/);

    await page.goto('/organizations');
    const card = page.locator('[data-testid^="organization-"]').filter({ hasText: orgName });
    await card.getByRole('button', { name: 'Admin panel', exact: true }).click();
    await page.waitForURL('**/organization/admin-panel');
    await page.getByRole('heading', { name: 'User administration', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Add user', exact: true }).click();
    await page.getByRole('heading', { name: 'Invite user', exact: true }).waitFor();
    await page.getByLabel(label('Name')).fill(member.name);
    await page.getByLabel(label('Last name')).fill(member.last_name);
    await page.getByLabel(label('Email')).fill(member.email);
    expect(await page.getByLabel(label('User type')).inputValue()).toBe('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Invitation sent to ${member.email}`, { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'User administration', exact: true }).waitFor();

    // The Member, in a browser of their own.
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
    try {
      const memberPage = await context.newPage();
      memberPage.setDefaultTimeout(15_000);
      await signInViaApi(memberPage, member, '/organizations/invitations');
      await memberPage.getByRole('heading', { name: 'Invitations', exact: true }).waitFor();
      await memberPage
        .getByRole('button', { name: `Accept the invitation of ${orgName}`, exact: true })
        .click();
      await memberPage.getByText('You joined the organization.', { exact: true }).waitFor();
      await memberPage.goto('/organizations');
      await memberPage.getByRole('heading', { name: 'My organizations', exact: true }).waitFor();
      const memberCard = memberPage.locator('[data-testid^="organization-"]').filter({ hasText: orgName });
      await memberCard.getByRole('button', { name: `Work in ${orgName}`, exact: true }).waitFor();
      expect(await memberCard.getByRole('button', { name: 'Admin panel' }).count()).toBe(0);
      expect(await memberCard.getByRole('link', { name: 'Settings' }).count()).toBe(0);
      expect(await memberPage.getByRole('link', { name: 'Create organization' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
