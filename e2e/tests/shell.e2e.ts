import { adminCredentials, signUpViaApi } from '../support/api';
import { signInViaApi, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

describe('the shell (remote loading)', () => {
  test('a remote that fails to load shows the error panel, and Retry loads it', async ({ page }) => {
    const block = '**/remotes/admin/**';
    await page.route(block, (route) => route.abort());
    await signInViaApi(page, adminCredentials(), '/admin/staff');

    const panel = page.getByRole('alert').filter({ hasText: 'This section could not be loaded' });
    await panel.waitFor();
    expect(await page.getByRole('heading', { name: 'Staff', exact: true }).count()).toBe(0);

    await page.unroute(block);
    await panel.getByRole('button', { name: 'Retry', exact: true }).click();
    await page.getByRole('heading', { name: 'Staff', exact: true }).waitFor();
    await panel.waitFor({ state: 'detached' });
  });

  test('the sign-in page downloads no remote, and a customer downloads only the customer remote', async ({
    page,
  }) => {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter((path) => path.startsWith('/remotes'))).toEqual([]);

    const customer = await signUpViaApi('lazy');
    requested.length = 0;
    await signInViaApi(page, customer, '/conversations');
    await page.getByRole('heading', { name: 'Chats' }).first().waitFor();
    // The menus come from /remotes.json: the sidebar lists every customer screen before their code loads.
    await page.getByRole('link', { name: 'Workflows', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.some((path) => path.startsWith('/remotes/customer/'))).toBe(true);
    expect(requested.filter((path) => /^\/remotes\/(admin|org)\//.test(path))).toEqual([]);
  });
});
