import { setAppConfig, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { signInViaApi, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

describe('feature flags in the browser', () => {
  test('templates switched off: the menu entry is gone and a bookmarked address says so; on again, both are back', async ({
    page,
  }) => {
    const customer = await signUpViaApi('flags');
    await setAppConfig({ templates_enabled: 'false' });
    try {
      await signInViaApi(page, customer, '/templates/create-template');
      await page.getByRole('heading', { name: 'This feature is switched off', exact: true }).waitFor();
      await page
        .getByText('The Templates feature is switched off in this app. Ask an administrator if you need it.')
        .waitFor();
      expect(await page.getByText('Page not found.').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Templates', exact: true }).count()).toBe(0);
      await page.getByRole('link', { name: 'Chats', exact: true }).waitFor();
      await expectAccessible(page, 'feature switched off (/templates/create-template)');
    } finally {
      await setAppConfig({ templates_enabled: 'true' });
    }
    await page.goto('/templates');
    await page.getByRole('link', { name: 'Templates', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'This feature is switched off' }).count()).toBe(0);
  }, 60_000);
});
