import { adminCredentials } from '../support/api';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

describe('templates (001 §2 /templates, §5)', () => {
  test('a user creates a template with a field, then applies it and gets the answer in its chat', async ({
    page,
  }) => {
    // Staff always have access to generate.
    await signInViaApi(page, adminCredentials(), '/templates/create-template');
    const name = `Haiku ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: label('Name') }).fill(name);
    await page.getByRole('textbox', { name: label('Description') }).fill('A short poem');
    await page.getByRole('textbox', { name: label('Content') }).fill('Write a haiku about [topic].');
    // The placeholder became a field card, labelled after its name until edited.
    const card = page.getByRole('group', { name: 'Field topic' });
    await card.waitFor();
    await card.getByRole('textbox', { name: label('Label') }).fill('Topic');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/templates$/);

    const article = page.getByRole('article', { name });
    await article.getByRole('button', { name: 'Use', exact: true }).click();
    await page.waitForURL(/\/templates\/apply-template\/\d+\/\d+$/);

    // Every field needs a value before Generate sends anything.
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText("The input can't be empty", { exact: true }).first().waitFor();
    await page.getByRole('textbox', { name: label('Topic') }).fill('autumn leaves');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor({ timeout: 20_000 });
  }, 90_000);
});
