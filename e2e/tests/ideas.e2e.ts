import { adminCredentials } from '../support/api';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

describe('topic and hashtag generators', () => {
  test('a user generates hashtags, sees them in the history and copies them', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // Staff always have access; the fake provider answers with FAKE_REPLY (no # in it, so it is one idea).
    await signInViaApi(page, adminCredentials(), '/hashtags');
    const post = `Morning coffee ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: label('Your post') }).fill(post);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByText(FAKE_REPLY, { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('article', { name: `${post} (instagram)` }).waitFor();
    await result.getByRole('button', { name: 'Copy all', exact: true }).click();
    await page.getByText('Copied to the clipboard.').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(FAKE_REPLY);
  }, 90_000);
});
