import { adminCredentials, apiCall, setAppConfig } from '../support/api';
import { label, signInViaApi, until, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

async function publicConfig(): Promise<Record<string, string | null>> {
  const { config } = await apiCall<{ config: { key: string; value: string | null }[] }>(
    'GET',
    '/api/appconfig',
  );
  return Object.fromEntries(config.map(({ key, value }) => [key, value]));
}

describe('admin settings (000 §2 /settings, §4 protection)', () => {
  test('renaming the app in Admin → Settings changes the page title', async ({ page }) => {
    const before = await publicConfig();
    const original = before.app_name ?? null;
    const tagline = before.tagline;
    const name = `Studio ${Date.now().toString(36)}`;
    try {
      await signInViaApi(page, adminCredentials(), '/admin/settings');
      await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
      const field = page.getByLabel(label('App name'));
      await field.fill(name);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Settings saved.', { exact: true }).waitFor();

      const expected = tagline ? `${name} | ${tagline}` : name;
      await until(`the title "${expected}"`, async () => (await page.title()) === expected);
      expect((await publicConfig()).app_name).toBe(name);
    } finally {
      await setAppConfig({ app_name: original });
    }
  });

  test('a protected field unlocks after confirming and locks again 10 s after the last edit', async ({
    page,
  }) => {
    const admin = adminCredentials();
    await signInViaApi(page, admin, '/admin/settings');
    await page.getByRole('tab', { name: 'Advanced', exact: true }).click();
    const secret = page.getByLabel(label('OpenAI API key'));
    const edit = page.getByRole('button', { name: 'Edit OpenAI API key', exact: true });
    await secret.waitFor();
    expect(await secret.isDisabled()).toBe(true);

    await edit.click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure to edit this setting?' });
    await dialog.waitFor();
    // Editing a secret setting asks for the current password again.
    await dialog.getByLabel(label('Current password')).fill(admin.password);
    await dialog.getByRole('button', { name: 'Yes, edit', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await secret.isEnabled()).toBe(true);
    expect(await edit.count()).toBe(0);

    // An edit 4 s after the unlock restarts the 10 s.
    await page.waitForTimeout(4_000);
    await secret.fill('sk-e2e-not-a-real-key');
    const lastEdit = Date.now();
    await page.waitForTimeout(7_500);
    expect(await secret.isEnabled()).toBe(true);

    await until('the field to lock again', () => secret.isDisabled(), 14_000);
    const lockedAfter = Date.now() - lastEdit;
    expect(lockedAfter).toBeGreaterThanOrEqual(9_000);
    expect(lockedAfter).toBeLessThanOrEqual(14_000);
    await edit.waitFor();
    // The typed value is kept as a draft (not saved): Save is offered.
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isEnabled()).toBe(true);
  }, 45_000);
});
