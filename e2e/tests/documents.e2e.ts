import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { adminCredentials, apiCall, login } from '../support/api';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

describe('documents', () => {
  test('a user creates a document, writes in the block editor, applies a template and asks an avatar from the tools panel, generates in two steps, and downloads it as Word', async ({
    page,
  }) => {
    // Staff always have access to generate; the fake provider answers with FAKE_REPLY in small pieces.
    const admin = await login(adminCredentials());
    const templateName = `Summary ${Date.now().toString(36)}`;
    await apiCall(
      'POST',
      '/api/templates',
      { name: templateName, description: 'Summarizes the document', content: 'Summarize this document.' },
      admin.access_token,
    );
    const avatarName = `Writer ${Date.now().toString(36)}`;
    await apiCall('POST', '/api/avatars', { name: avatarName }, admin.access_token);
    await signInViaApi(page, adminCredentials(), '/documents');
    await page.getByRole('button', { name: 'New document', exact: true }).click();
    const name = `Coffee ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: label('Name') }).fill(name);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/documents\/\d+$/);

    // BlockNote's editable area.
    const editor = page.locator('.bn-editor[contenteditable="true"]');
    await editor.click();
    await page.keyboard.type('Coffee grows in the tropics.');
    await page.getByText('All changes saved', { exact: true }).waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('complementary', { name: 'Tools' });
    await tools.getByRole('textbox', { name: 'Search templates' }).fill(templateName);
    await tools.getByRole('button', { name: new RegExp(templateName) }).click();
    await tools.getByRole('button', { name: 'Generate', exact: true }).click();
    await editor.getByText(FAKE_REPLY, { exact: false }).waitFor({ timeout: 20_000 });
    await page.getByText('All changes saved', { exact: true }).waitFor({ timeout: 15_000 });

    // An avatar's answer is inserted too.
    await tools.getByRole('tab', { name: 'Avatars' }).click();
    await tools.getByRole('textbox', { name: label('Avatar') }).click();
    await page.getByRole('option', { name: avatarName, exact: true }).click();
    await tools.getByRole('textbox', { name: label('What should the avatar write?') }).fill('A closing line');
    const [asked] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/documents/avatar-output')),
      tools.getByRole('button', { name: 'Ask the avatar', exact: true }).click(),
    ]);
    expect(asked.status()).toBe(202);
    await tools.getByText('Writing into the document…').waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('All changes saved', { exact: true }).waitFor({ timeout: 15_000 });

    // The two-step Generate window: a template, then the avatar that writes it.
    await page.locator('label', { hasText: /^View$/ }).click();
    await page.locator('.bn-editor[contenteditable="false"]').waitFor();
    await page.getByRole('button', { name: 'Generate', exact: true }).first().click();
    const modal = page.getByRole('dialog', { name: 'Generate with a template and an avatar' });
    await modal.getByRole('textbox', { name: 'Search templates' }).fill(templateName);
    await modal.getByRole('button', { name: new RegExp(templateName) }).click();
    await modal.getByRole('button', { name: 'Next', exact: true }).click();
    await modal.getByRole('textbox', { name: label('Avatar') }).click();
    await page.getByRole('option', { name: avatarName, exact: true }).click();
    await modal.getByRole('button', { name: 'Generate', exact: true }).click();
    await modal.waitFor({ state: 'detached' });
    await page.locator('.bn-editor[contenteditable="true"]').waitFor();
    await tools.getByText('Writing into the document…').waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('All changes saved', { exact: true }).waitFor({ timeout: 15_000 });

    await tools.getByRole('tab', { name: 'Download' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      tools.getByRole('button', { name: 'Download as Word', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${name}.docx`);
    const zip = await JSZip.loadAsync(readFileSync(await download.path()));
    const xml = await zip.file('word/document.xml')!.async('string');
    expect(xml).toContain('Coffee grows in the tropics.');
    // From the template, the avatar, and the Generate window.
    expect(xml.split('Hello from the fake model.').length - 1).toBe(3);

    // The list shows it, found by its text.
    await page.goto('/documents');
    await page.getByRole('textbox', { name: 'Search documents' }).fill('tropics');
    await page.getByRole('article', { name }).waitFor();
  }, 120_000);
});
