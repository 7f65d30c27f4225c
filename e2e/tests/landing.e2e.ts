import type { Page } from 'playwright-core';
import { apiCall, setAppConfig, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { signInViaApi, useBrowser, waitForSignedIn } from '../support/fixtures';

const { test } = useBrowser();

const LANDING = {
  landing_enabled: 'true',
  spanish_enabled: 'true',
  signup_enabled: 'true',
  title: 'Write with your own avatars',
  tagline: 'Content that sounds like you',
  primary_color: '#0b7285',
  feature1_title: 'Avatars that know you',
  feature1_description: 'Assistants trained on your brand.',
  feature2_title: 'Templates',
  feature2_description: 'Reusable prompts for every format.',
  feature3_title: 'Documents',
  feature3_description: 'Long-form writing in one place.',
  benefit1_title: 'Ten times faster',
  benefit1_description: 'Drafts in seconds.',
  benefit2_title: 'One voice',
  benefit2_description: 'Consistent tone everywhere.',
  benefit3_title: 'Yours',
  benefit3_description: 'Your data stays yours.',
  tagline_es: 'Contenido con tu voz',
  high_ticket_offer_name: 'Done-for-you coaching',
  high_ticket_offer_link: 'https://offer.example.com/vip',
  tracking_code: '<script>window.__tracked = (window.__tracked || 0) + 1;</script>',
};

/** The largest contentful paint of the page, as the browser measured it (ms since navigation start). */
function largestContentfulPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1].startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}

/** Bytes of JavaScript the page loaded: its inline scripts plus every script file (compressed, as transferred). */
function javaScriptBytes(page: Page): Promise<number> {
  return page.evaluate(() => {
    const inline = Array.from(document.scripts)
      .filter((s) => !s.src && (!s.type || s.type === 'text/javascript'))
      .reduce((sum, s) => sum + new Blob([s.text]).size, 0);
    const files = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => r.initiatorType === 'script')
      .reduce((sum, r) => sum + r.transferSize, 0);
    return inline + files;
  });
}

const tracked = (page: Page) => page.evaluate(() => (window as { __tracked?: number }).__tracked ?? 0);

describe('landing pages', () => {
  // The settings as they were, put back afterwards for the other test files.
  let before: Record<string, string | null> = {};
  beforeAll(async () => {
    const { config } = await apiCall<{ config: { key: string; value: string | null }[] }>(
      'GET',
      '/api/appconfig',
    );
    before = Object.fromEntries(
      Object.keys(LANDING).map((key) => [key, config.find((entry) => entry.key === key)?.value ?? null]),
    );
    await setAppConfig(LANDING);
  });
  afterAll(() => setAppConfig(before));

  test('/ in English from the app config, fast, tracking only after consent, with a sign-up link', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: LANDING.title }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.title()).toBe(`${LANDING.title} | ${LANDING.tagline}`);
    for (const key of [
      'feature1_title',
      'feature2_title',
      'feature3_title',
      'benefit1_title',
      'benefit2_title',
      'benefit3_title',
    ])
      await page.getByRole('heading', { name: LANDING[key as keyof typeof LANDING], exact: true }).waitFor();
    const offer = page.getByRole('link', { name: 'Learn more' });
    expect(await offer.getAttribute('href')).toBe(LANDING.high_ticket_offer_link);

    const lcp = await largestContentfulPaint(page);
    expect(lcp).toBeGreaterThan(0);
    expect(lcp).toBeLessThan(1500);
    expect(await javaScriptBytes(page)).toBeLessThan(80 * 1024);
    await expectAccessible(page, 'landing page (/)');

    // No tracking before the visitor answers the banner; Accept runs it, and the answer is remembered.
    expect(await tracked(page)).toBe(0);
    await page.getByText('We use cookies to measure visits to this page.').waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForFunction(() => (window as { __tracked?: number }).__tracked === 1);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: LANDING.title }).waitFor();
    await page.waitForFunction(() => (window as { __tracked?: number }).__tracked === 1);
    expect(await page.getByRole('button', { name: 'Accept' }).isVisible()).toBe(false);

    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await page.waitForURL('**/auth/signup');
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
  });

  test('declining keeps the tracking code from ever running', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: LANDING.title }).waitFor();
    expect(await tracked(page)).toBe(0);
    expect(await page.getByRole('button', { name: 'Accept' }).isVisible()).toBe(false);
  });

  test('/latam in Spanish, and its sign-up link opens the sign-up form in Spanish', async ({ page }) => {
    await page.goto('/latam');
    await page.getByText(LANDING.tagline_es).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    await page.getByRole('heading', { name: 'Lo que puedes hacer' }).waitFor();
    await page.getByText('Usamos cookies para medir las visitas a esta página.').waitFor();
    expect(await largestContentfulPaint(page)).toBeLessThan(1500);
    await page.getByRole('link', { name: 'Registrarse' }).first().click();
    await page.waitForURL('**/auth/signup');
    await page.getByRole('button', { name: 'Registrarme' }).waitFor();
  });

  test('a signed-in user going to / gets the app, and after sign-out the landing page', async ({ page }) => {
    const customer = await signUpViaApi('landing');
    // Tokens stored without the hint cookie (as before it existed): the landing page hands over to the app.
    await signInViaApi(page, customer, '/');
    expect(await page.getByRole('heading', { level: 1, name: LANDING.title }).count()).toBe(0);
    await page.goto('/');
    await waitForSignedIn(page);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('heading', { level: 1, name: LANDING.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });
});
