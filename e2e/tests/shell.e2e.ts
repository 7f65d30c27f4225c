import { adminCredentials } from '../support/api';
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
});
