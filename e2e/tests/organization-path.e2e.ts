import { adminCredentials, apiCall, login } from '../support/api';
import { signInViaApi, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

describe('the organization in the path', () => {
  test('/{org_slug}/templates opens Templates in that organization; a reserved slug is refused', async ({
    page,
  }) => {
    const admin = adminCredentials();
    const { access_token } = await login(admin);
    const suffix = Date.now().toString(36);
    const name = `Path Org ${suffix}`;
    const slug = `path-org-${suffix}`;
    await apiCall('POST', '/api/organizations', { name, slug }, access_token);
    await expect(
      apiCall('POST', '/api/organizations', { name: 'Shadow', slug: 'templates' }, access_token),
    ).rejects.toThrow(/answered 400: .*slug_reserved/);

    await signInViaApi(page, admin, `/${slug}/templates`);
    // The slug chose the scope; the screen answers at the rest of the path.
    await page.waitForURL((url) => url.pathname === '/templates');
    const switcher = page.getByRole('textbox', { name: 'Workspace' });
    await switcher.waitFor();
    expect(await switcher.inputValue()).toBe(name);
  });
});
