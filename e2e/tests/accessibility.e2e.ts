import type { Page } from 'playwright-core';
import { adminCredentials, apiCall, login, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { signInViaApi, until, useBrowser } from '../support/fixtures';
import { createProduct, routePayments } from '../support/payments';

const { test } = useBrowser();

/** Opens `path` in the running app (no full reload) and waits until its data has arrived and spinners are gone. */
async function open(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settle(page);
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await until(
    'the page to finish loading',
    async () => (await page.locator('[role="status"]').count()) === 0,
  );
  await page.waitForLoadState('networkidle');
}

/** Opens each path in turn and collects every screen's serious or critical violations before failing. */
async function checkScreens(page: Page, screens: [name: string, path: string][]): Promise<void> {
  const failures: string[] = [];
  for (const [name, path] of screens) {
    await open(page, path);
    await expectAccessible(page, `${name} (${path})`).catch((e: Error) => failures.push(e.message));
  }
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}

describe('accessibility (axe-core: no serious or critical violation on any screen)', () => {
  test('the signed-out screens: sign-in, sign-up, recovery', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await checkScreens(page, [
      ['sign-in', '/login'],
      ['sign-up', '/signup'],
      ['recovery', '/recovery'],
    ]);
  });

  test('the customer screens', async ({ page }) => {
    const customer = await signUpViaApi('a11y');
    // Starting a conversation needs words, as sending does.
    await apiCall(
      'POST',
      '/api/words/admin/grant',
      { user_id: customer.session.user.user_id, words: 1000 },
      (await login(adminCredentials())).access_token,
    );
    const { conversation } = await apiCall<{ conversation: { conversation_id: number } }>(
      'POST',
      '/api/conversations',
      { name: 'Accessibility check' },
      customer.session.access_token,
    );
    const { avatar } = await apiCall<{ avatar: { avatar_id: number } }>(
      'POST',
      '/api/avatars',
      { name: 'Accessibility avatar', context: 'You answer briefly.' },
      customer.session.access_token,
    );
    // A training (its dataset uploaded first) and an output, so their tabs show a card each.
    const { file } = await apiCall<{ file: { file_id: number } }>(
      'POST',
      '/api/files',
      { name: 'posts.txt', content: 'Ahoy crew! The boats are in.\nFair winds, everyone.' },
      customer.session.access_token,
    );
    await apiCall(
      'POST',
      '/api/trainings',
      { name: 'Accessibility training', avatar_id: avatar.avatar_id, file_id: file.file_id },
      customer.session.access_token,
    );
    await apiCall(
      'POST',
      '/api/outputs',
      { avatar_id: avatar.avatar_id, prompt: 'A greeting', content: 'Ahoy crew!' },
      customer.session.access_token,
    );
    const { document } = await apiCall<{ document: { document_id: number } }>(
      'POST',
      '/api/documents',
      { name: 'Accessibility document', content: '# Heading\n\n- a list item\n\nSome text.' },
      customer.session.access_token,
    );
    const { tutorial } = await apiCall<{ tutorial: { tutorial_id: number } }>(
      'POST',
      '/api/tutorials',
      { name: 'Accessibility tutorial', src: '/api/files/content/a11y-video.mp4' },
      (await login(adminCredentials())).access_token,
    );
    await signInViaApi(page, customer, '/conversations');
    await checkScreens(page, [
      ['avatars', '/avatars'],
      ['community avatars', '/avatars/community'],
      ['an avatar', `/avatars/${avatar.avatar_id}`],
      ['an avatar’s trainings', `/avatars/${avatar.avatar_id}/trainings`],
      ['an avatar’s outputs', `/avatars/${avatar.avatar_id}/outputs`],
      ['documents', '/documents'],
      ['a document', `/documents/${document.document_id}`],
      ['super fetch', '/super-fetch'],
      ['topics', '/topics'],
      ['hashtags', '/hashtags'],
      ['tutorials', '/tutorials'],
      ['a tutorial', `/tutorials/${tutorial.tutorial_id}`],
      ['conversations', '/conversations'],
      ['a conversation', `/conversations/${conversation.conversation_id}`],
      ['templates', '/templates'],
      ['template editor', '/templates/create-template'],
      ['workflows', '/workflows'],
      ['my workflows', '/user_workflows'],
      ['settings', '/settings'],
      ['profile', '/profile'],
      ['welcome', '/welcome'],
      ['chat widget generator', '/chat-widget-generator'],
    ]);
  }, 90_000);

  test('the payment screens: pricing, checkout, order summary, billing', async ({ page }) => {
    await routePayments(page);
    const customer = await signUpViaApi('a11y-pay');
    const product_id = await createProduct({
      name: `A11y plan ${Date.now().toString(36)}`,
      short_description: 'For the accessibility check',
      price: 1200,
      word_amount: 1000,
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
      free_trial_length: 7,
    });
    const { purchase_id } = await apiCall<{ purchase_id: number }>(
      'POST',
      '/api/checkout/attempt',
      { product_id, payment_method_id: 'pm_card_visa' },
      customer.session.access_token,
    );
    await signInViaApi(page, customer, '/pricing');
    await checkScreens(page, [
      ['pricing', '/pricing'],
      ['checkout', `/checkout/${product_id}`],
      ['order summary', `/thankyou/${purchase_id}`],
      ['billing', '/billing'],
    ]);
    // The confirmation with its red button (the shared danger colour).
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, 'billing: cancel a subscription (dialog)');
    // Saving a card: the dialog with Stripe's card field, loaded with the key its SetupIntent names.
    await page.getByRole('dialog').getByRole('button', { name: 'Keep subscription' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.getByRole('dialog').getByLabel('Card number').waitFor();
    await expectAccessible(page, 'billing: add a card (dialog)');
  }, 90_000);

  test('the organization and back-office screens (staff admin)', async ({ page }) => {
    const admin = await login(adminCredentials());
    const { organization } = await apiCall<{ organization: { organization_id: number } }>(
      'POST',
      '/api/organizations',
      { name: `A11y Org ${Date.now().toString(36)}` },
      admin.access_token,
    );
    await signInViaApi(page, adminCredentials(), '/organizations');
    await checkScreens(page, [
      ['my organizations', '/organizations'],
      ['create organization', '/organizations/organization-settings'],
      ['organization settings', `/organizations/organization-settings/${organization.organization_id}`],
      ['all organizations', '/organizations/all'],
      ['staff', '/admin/staff'],
      ['app settings', '/admin/settings'],
      ['workflows (back office)', '/admin/workflows'],
      ['dashboard (back office)', '/admin'],
      ['users (back office)', '/admin/users'],
      ['new customer', '/admin/users/new'],
      ['purchases (back office)', '/admin/purchases'],
      ['products (back office)', '/admin/products'],
      ['new product', '/admin/products/new/edit'],
      ['discounts (back office)', '/admin/discounts'],
      ['audit log', '/admin/audit'],
      ['income analytics', '/admin/analytics/income'],
      ['customers analytics', '/admin/analytics/customers'],
      ['products analytics', '/admin/analytics/products'],
      ['tutorials (back office)', '/admin/tutorials'],
    ]);
    // A customers card expanded: its table, read a page at a time (this month's sign-ups include the test's).
    await page.goto('/admin/analytics/customers');
    await settle(page);
    await page.getByRole('button', { name: 'Expand Sign Ups' }).click();
    await page.getByRole('table', { name: 'Sign Ups' }).getByRole('row').nth(1).waitFor();
    await expectAccessible(page, 'customers analytics: sign-ups expanded');
    // The admin panel works on the current organization: choose the new one, as the switcher would.
    await page.evaluate(
      (id) => localStorage.setItem('organization_id', String(id)),
      organization.organization_id,
    );
    await page.goto('/organization/admin-panel');
    await settle(page);
    const orgId = organization.organization_id;
    const { campaign } = await apiCall<{ campaign: { campaign_id: number } }>(
      'POST',
      '/api/campaigns',
      { organization_id: orgId, name: 'A11y campaign', description: 'Checked by axe' },
      admin.access_token,
    );
    const { group } = await apiCall<{ group: { group_id: number } }>(
      'POST',
      '/api/groups',
      { organization_id: orgId, name: 'A11y group' },
      admin.access_token,
    );
    await apiCall(
      'POST',
      `/api/groups/users/${group.group_id}/${admin.user.user_id}`,
      {},
      admin.access_token,
    );
    await apiCall(
      'POST',
      `/api/campaigns/give-access/${campaign.campaign_id}`,
      { group_id: group.group_id },
      admin.access_token,
    );
    await checkScreens(page, [
      ['organization admin panel', '/organization/admin-panel'],
      ['campaigns', '/organization/campaigns'],
      ['a campaign', `/organization/campaigns/${campaign.campaign_id}`],
      ['campaign users', `/organization/campaigns/${campaign.campaign_id}/users`],
      ['groups', '/organization/groups'],
      ['a group', `/organization/groups/${group.group_id}`],
      ['a group member', `/organization/groups/${group.group_id}/users/${admin.user.user_id}`],
      ['organization products', '/organization/admin/products'],
      ['new organization product', '/organization/admin/products/new'],
    ]);
  }, 150_000);
});
