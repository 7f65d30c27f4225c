import { adminCredentials, apiCall, login, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { createProduct } from '../support/payments';

const { test } = useBrowser();

describe("back-office customers (000 §2 /admin/users, §6 open the customer's account)", () => {
  test("an admin finds a customer, edits them, gives a gift of 5,000 words, opens their account in a new tab with the 'Viewing as' banner and sees the grant in the audit log", async ({
    page,
    context,
  }) => {
    const admin = await login(adminCredentials());
    const customer = await signUpViaApi('customers');
    const user_id = customer.session.user.user_id;
    const productName = `Gift words ${Date.now().toString(36)}`;
    await createProduct({ name: productName, price: 1000, word_amount: 5000 });

    // Find the customer in the list (search debounced) and open their screen.
    await signInViaApi(page, adminCredentials(), '/admin/users');
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(customer.email);
    await page.getByRole('link', { name: `Open ${customer.email}` }).click();
    await page.waitForURL(new RegExp(`/admin/users/${user_id}$`));
    await page.getByRole('button', { name: 'Give access', exact: true }).waitFor();
    await expectAccessible(page, 'the customer screen (back office)');

    // Edit: a new name and phone, saved and shown on the screen.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(new RegExp(`/admin/users/${user_id}/edit$`));
    const name = page.getByLabel(label('Name'));
    await name.waitFor();
    await expectAccessible(page, 'the customer edit form (back office)');
    await name.fill('Renamed');
    await page.getByLabel(label('Phone')).fill('(555) 321-0000');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Customer saved.', { exact: true }).waitFor();
    await page.waitForURL(new RegExp(`/admin/users/${user_id}$`));
    const fullName = `Renamed ${customer.session.user.last_name}`.trim();
    await page.getByRole('heading', { name: fullName, exact: true }).waitFor();
    await page.getByText('5553210000', { exact: true }).waitFor();

    // A gift of 5,000 words through Give access: total 0, the product, the gift method.
    await page.getByRole('button', { name: 'Give access', exact: true }).click();
    const give = page.getByRole('dialog', { name: 'Give access' });
    await give.getByRole('textbox', { name: label('Product') }).waitFor();
    await expectAccessible(page, 'the customer screen: Give access (dialog)');
    await give.getByRole('textbox', { name: label('Product') }).click();
    await page.getByRole('option', { name: productName }).click();
    await give.getByRole('button', { name: 'Give access', exact: true }).click();
    await page.getByText('Access given.', { exact: true }).waitFor();

    // Open the account: a new tab signed in as the customer, with the banner; the admin's tab stays the admin's.
    const [viewer] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Open account', exact: true }).click(),
    ]);
    await viewer.getByText(`Viewing as ${fullName}`, { exact: true }).waitFor({ timeout: 20_000 });
    expect(viewer.url()).not.toContain('view-as');
    await viewer.getByText('5,000').first().waitFor();
    await expectAccessible(viewer, "the customer's account with the 'Viewing as' banner");
    const adminCode: string[] = [];
    viewer.on('request', (request) => {
      if (request.url().includes('/remotes/admin/')) adminCode.push(request.url());
    });
    await viewer.goto('/admin/users');
    await viewer.getByText(`Viewing as ${fullName}`, { exact: true }).waitFor();
    // The customer's rights only: no back office in this session, not even its code.
    await viewer.getByText('Page not found.', { exact: true }).waitFor();
    expect(adminCode).toEqual([]);

    await page.reload();
    await page.getByRole('heading', { name: fullName, exact: true }).waitFor();
    expect(await page.getByText(/^Viewing as/).count()).toBe(0);

    // Exit: the tab goes back to the customer's screen in the back office, as the admin.
    await viewer.getByRole('button', { name: 'Exit', exact: true }).click();
    await viewer.waitForURL(new RegExp(`/admin/users/${user_id}$`));
    await viewer.getByRole('heading', { name: fullName, exact: true }).waitFor();
    expect(await viewer.getByText(/^Viewing as/).count()).toBe(0);

    // Every step is in the audit log with the admin as the actor.
    const events = await apiCall<{ audit_events: { action: string; actor_user_id: number }[] }>(
      'GET',
      `/api/audit-events?target_user_id=${user_id}`,
      undefined,
      admin.access_token,
    );
    const actions = events.audit_events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'customer.updated',
        'purchase.created',
        'customer.impersonation_started',
        'customer.impersonation_opened',
      ]),
    );
    expect(new Set(events.audit_events.map((e) => e.actor_user_id)).size).toBe(1);

    // The grant is in the audit log screen, filtered by the customer.
    await page.goto('/admin/audit');
    await page.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Target (user ID)' }).fill(String(user_id));
    await page.getByRole('cell', { name: 'purchase.created', exact: true }).first().waitFor();
  });
});
