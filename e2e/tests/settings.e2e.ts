import type { Locator } from 'playwright-core';
import { apiCall, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { label, signInViaApi, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

describe('customer settings (000 §2 Settings)', () => {
  test('the integration webhook URL and manual mode are kept across a reload', async ({ page }) => {
    const user = await signUpViaApi('settings');
    await signInViaApi(page, user, '/settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();

    const webhook = page.getByLabel(label('Integration webhook URL'));
    const manual = page.getByLabel(label('Manual mode'));
    const url = `https://hooks.example.com/e2e/${Date.now()}`;
    expect(await manual.isChecked()).toBe(false);
    await webhook.fill(url);
    await manual.check();
    expect(await manual.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Settings saved.', { exact: true }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await expectValue(webhook, url);
    expect(await manual.isChecked()).toBe(true);

    // The server has them too (not only this browser).
    const { user: saved } = await apiCall<{ user: { zappier_webhook_url: string; manual_mode: boolean } }>(
      'GET',
      '/api/users',
      undefined,
      user.session.access_token,
    );
    expect(saved).toMatchObject({ zappier_webhook_url: url, manual_mode: true });
  });

  test('the Super Fetch assistant is reset after a confirmation; the section and its dialog pass axe', async ({
    page,
  }) => {
    const user = await signUpViaApi('settings-reset');
    await signInViaApi(page, user, '/settings');
    await page.getByRole('heading', { name: 'Super Fetch assistant', exact: true }).waitFor();
    await page.getByText('Made the first time you use Super Fetch or reset it.', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset your Super Fetch assistant?' });
    await confirm.waitFor();
    await expectAccessible(page, 'Settings: reset the Super Fetch assistant (dialog)');
    await confirm.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByText('Super Fetcch reset.', { exact: true }).waitFor();
    await confirm.waitFor({ state: 'detached' });

    // The new assistant is the account's default avatar, named in the section.
    const { user: saved } = await apiCall<{ user: { defaultAssistant: { id: string } | null } }>(
      'GET',
      '/api/users',
      undefined,
      user.session.access_token,
    );
    expect(saved.defaultAssistant?.id).toMatch(/^asst_/);
    await page.getByText(`Assistant ${saved.defaultAssistant!.id}`, { exact: true }).waitFor();
    await expectAccessible(page, 'Settings: the Super Fetch assistant section after a reset');
  });
});

async function expectValue(input: Locator, value: string): Promise<void> {
  await input.waitFor();
  expect(await input.inputValue()).toBe(value);
}
