import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startFakeOpenAi, type FakeOpenAi } from '../../backend/test/fakes/openai-server';
import { expectAccessible } from '../support/axe';
import { ARTIFACTS, label, signInViaUi, until, useBrowser } from '../support/fixtures';
import { launchServer, stopLaunchedServer, type E2eState } from '../support/server';

const { test } = useBrowser();

const LINE = 'Connected and ready to write your content.';

describe('first run: the setup checklist', () => {
  let fake: FakeOpenAi;
  let server: Awaited<ReturnType<typeof launchServer>>;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    // Several pieces apart in time, so the line is seen arriving over the socket.
    fake.defaultReply = { text: LINE, chunks: 6, delayMs: 150 };
    // A fresh start as a new operator makes it: no AI provider, the starter content on, and the fake on loopback
    // allowed as an operator of a local AI server would allow it.
    server = await launchServer({ env: { STARTER_CONTENT: 'true', OUTBOUND_ALLOW: '127.0.0.1' } });
  });
  afterAll(async () => {
    await context?.close();
    await stopLaunchedServer(server);
    await fake.close();
  });

  /** A page of this test's own server (the shared one stays untouched). */
  async function openPage(state: E2eState, browser: import('playwright-core').Browser): Promise<Page> {
    context = await browser.newContext({ baseURL: state.baseUrl, viewport: { width: 1300, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  const stateOf = (page: Page, item: string) => page.getByTestId(`setup-state-${item}`).textContent();

  test('the admin signs in, sets the AI server address, tests it, sees the streamed line and the item turns done', async ({
    browser,
  }) => {
    const page = await openPage(server.state, browser);
    try {
      await firstRun(page);
    } catch (error) {
      // The fixture's screenshot shows its own page; this test drives another server's.
      mkdirSync(ARTIFACTS, { recursive: true });
      await page
        .screenshot({ path: join(ARTIFACTS, 'setup--first-run.png'), fullPage: true })
        .catch(() => {});
      throw error;
    }
  }, 120_000);

  async function firstRun(page: Page): Promise<void> {
    await signInViaUi(page, { email: server.state.adminEmail, password: server.state.adminPassword });
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Set up your studio' }).waitFor();
    expect(await stateOf(page, 'ai')).toBe('To do');
    // The first start loaded the starter content.
    await page.getByText(/^62 starter templates and 6 workflows/).waitFor();
    await expectAccessible(page, 'setup checklist (/admin)');

    // The item's link opens its field in the settings.
    await page.getByRole('link', { name: 'Open the setting of AI provider' }).click();
    const field = page.getByLabel(label('AI server address (OpenAI-compatible; empty for OpenAI)'));
    await field.waitFor();
    await until('the field to have the focus', () => field.evaluate((el) => el === document.activeElement));
    // Elsewhere in the back office, a banner says what is left.
    await page.getByRole('region', { name: 'Set up your studio' }).waitFor();
    await field.fill(`${fake.url}/v1`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Settings saved.', { exact: true }).waitFor();

    await page.getByRole('link', { name: 'Open the setup checklist' }).click();
    await page.getByRole('heading', { name: 'Set up your studio' }).waitFor();
    await until(
      'the AI item to wait for its test',
      async () => (await stateOf(page, 'ai')) === 'Not tested yet',
    );

    await page.getByRole('button', { name: 'Test AI provider' }).click();
    // The line grows while it streams, before the test's answer arrives.
    const streamed = page.getByTestId('setup-streamed');
    await until('part of the line to show', async () => {
      const text = (await streamed.count()) ? ((await streamed.textContent()) ?? '') : '';
      return text.startsWith('Answer: ') && text.length > 'Answer: '.length && !text.endsWith(LINE);
    });
    await page.getByText(`Answer: ${LINE}`, { exact: true }).waitFor();
    await page.getByText('It works.', { exact: true }).waitFor();
    await until('the AI item to be done', async () => (await stateOf(page, 'ai')) === 'Done');
    expect(fake.requests.some((r) => r.stream)).toBe(true);
    // The "Settings saved." notice closes by itself (its close button has no name, a shared notice's known gap).
    await page.getByText('Settings saved.', { exact: true }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'setup checklist after a test (/admin)');
  }
});
