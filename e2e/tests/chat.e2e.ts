import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { adminCredentials, apiCall, login } from '../support/api';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { CUT_PROMPT, FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

describe('chatting with the AI (001 §2, §4)', () => {
  test('a user with access creates a conversation and sees the reply stream in', async ({ page }) => {
    // Staff always have access; the fake provider answers every chat with FAKE_REPLY in small pieces.
    await signInViaApi(page, adminCredentials(), '/conversations');
    await page.getByRole('heading', { name: 'Chats', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add conversation', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New conversation' });
    await dialog.getByLabel(label('Name')).fill('E2E chat');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/conversations\/\d+$/);

    await page.getByLabel(label('Message')).fill('Say hello, please.');
    const send = page.getByRole('button', { name: 'Send', exact: true });
    await send.click();

    // The answer arrives in pieces: sample the reply bubble until it is complete.
    const reply = page.getByText(/^Hello from the fake/).first();
    await reply.waitFor();
    const seen = new Set<string>();
    const deadline = Date.now() + 15_000;
    for (;;) {
      const text = ((await reply.textContent()) ?? '').trim();
      seen.add(text);
      if (text === FAKE_REPLY) break;
      if (Date.now() > deadline) throw new Error(`the reply never completed; last seen: "${text}"`);
      await page.waitForTimeout(15);
    }
    expect(seen.size).toBeGreaterThan(1);
    for (const text of seen) expect(FAKE_REPLY.startsWith(text)).toBe(true);

    // After a reload the saved reply is still there (it was written once, at the end of the stream).
    await page.reload();
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor();
    await page.getByText('Say hello, please.', { exact: true }).waitFor();
  });

  test('a cut answer offers Continue generating, and an answer downloads as a Word file', async ({
    page,
  }) => {
    const admin = await login(adminCredentials());
    const { conversation } = await apiCall<{ conversation: { conversation_id: number } }>(
      'POST',
      '/api/conversations',
      { name: 'E2E long story' },
      admin.access_token,
    );
    await signInViaApi(page, adminCredentials(), `/conversations/${conversation.conversation_id}`);

    await page.getByLabel(label('Message')).fill(`${CUT_PROMPT} about a fox.`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // The fake cuts this answer at its token limit: markdown rendered, then the offer to go on.
    await page.getByRole('heading', { name: 'A long story' }).waitFor();
    const more = page.getByRole('button', { name: 'Continue generating', exact: true });
    await more.waitFor();
    await more.click();
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor();
    expect(await more.count()).toBe(0);

    // The last answer's menu downloads it as a real DOCX that holds its text.
    const answers = page.getByRole('button', { name: 'More actions', exact: true });
    await answers.last().click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download Word' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('message.docx');
    const file = await download.path();
    const zip = await JSZip.loadAsync(readFileSync(file));
    const xml = await zip.file('word/document.xml')!.async('string');
    expect(xml).toContain('Hello from the fake model.');
  }, 90_000);
});
