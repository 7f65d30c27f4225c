import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { login, type Credentials, type SessionPair } from './api';
import { launchBrowser, newPage } from './browser';

export const ARTIFACTS = join(__dirname, '..', 'artifacts');

export interface E2eContext {
  page: Page;
  context: BrowserContext;
  browser: Browser;
}

type Body = (ctx: E2eContext) => Promise<void>;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

/** Saves a screenshot and the page's console of a failed test into e2e/artifacts/ (ignored by git). */
async function saveArtifacts(page: Page, name: string, console: string[]): Promise<string | null> {
  try {
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, name);
    await page.screenshot({ path: `${file}.png`, fullPage: true, timeout: 5_000 });
    writeFileSync(`${file}.log`, [`url: ${page.url()}`, ...console].join('\n'));
    return `${file}.png`;
  } catch {
    return null;
  }
}

/**
 * One Chromium for the test file, a fresh context (own storage) for every test, and a screenshot of the page
 * when a test fails. Call at the top of a test file and use the returned `test` instead of jest's `it`.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const file = basename(expect.getState().testPath ?? 'e2e', '.e2e.ts');

  function test(name: string, body: Body, timeout?: number): void {
    it(
      name,
      async () => {
        if (!browser) throw new Error('the browser did not start');
        const { context, page } = await newPage(browser);
        const console: string[] = [];
        page.on('console', (m) => console.push(`[${m.type()}] ${m.text()}`));
        page.on('pageerror', (e) => console.push(`[pageerror] ${e.message}`));
        try {
          await body({ page, context, browser });
        } catch (error) {
          const shot = await saveArtifacts(page, `${file}--${slug(name)}`, console);
          if (shot && error instanceof Error) error.message += `\n(screenshot: ${shot}, page: ${page.url()})`;
          throw error;
        } finally {
          await context.close();
        }
      },
      timeout,
    );
  }

  return { test };
}

/**
 * Signs in without the form: logs in through the API and stores the tokens where the frontends keep them
 * (frontends/shared/src/session/store.ts), then opens `path`.
 */
export async function signInViaApi(page: Page, credentials: Credentials, path = '/'): Promise<SessionPair> {
  const pair = await login(credentials);
  // Any same-origin page gives access to the origin's localStorage; the health check is the lightest.
  await page.goto('/api/health');
  await page.evaluate((p) => {
    localStorage.clear();
    localStorage.setItem('access_token', p.access_token);
    localStorage.setItem('refresh_token', p.refresh_token);
    localStorage.setItem('token_issued_at', String(Date.now()));
  }, pair);
  await page.goto(path);
  await waitForSignedIn(page);
  return pair;
}

/**
 * A form field by its label. Mantine adds a " *" to required labels, so the exact text is matched with the
 * marker optional.
 */
export function label(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);
}

/** Signs in through the login form at /login. */
export async function signInViaUi(page: Page, credentials: Credentials): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(label('Email')).fill(credentials.email);
  await page.getByLabel(label('Password')).fill(credentials.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await waitForSignedIn(page);
}

/** The signed-in frame is up: its user menu shows in the header. */
export async function waitForSignedIn(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^(User menu|Menú de usuario)$/ }).waitFor();
}

/** Polls `check` until it answers true (or throws after `timeout` ms with `what` in the message). */
export async function until(what: string, check: () => Promise<boolean>, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
