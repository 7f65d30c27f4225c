import type { Page } from 'playwright-core';
import { isKnownMissingPage } from '../../frontends/shared/src/testing/known-missing-pages';
import { adminCredentials, apiCall, login, signUpViaApi, type Credentials } from '../support/api';
import { markEmailVerified } from '../support/server';
import { signInViaApi, until, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

/** What the router's catch-all shows, in either language. */
const NOT_FOUND = /^(Page not found\.|Página no encontrada\.)$/;
/** Pages per role at most (one address per shape: /conversations/12 and /conversations/13 are one). */
const MAX_PAGES = 60;
/** The header menus whose entries show only once opened. */
const HEADER_MENUS = /^(User menu|Tools|Admin|Organization|Analytics)$/;

/** Opens `path` in the running app (no reload) and waits until its data arrived and spinners are gone. */
async function open(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  // The router renders the new address after the event: wait a frame so the old page is gone before checking.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50))));
  await page.waitForLoadState('networkidle');
  await until(
    'the page to finish loading',
    async () => (await page.locator('.mantine-Loader-root').count()) === 0,
  );
  await page.waitForLoadState('networkidle');
}

/** Every same-origin page address the page links to (menus of the header opened one by one). */
async function linksOn(page: Page): Promise<string[]> {
  const hrefs = new Set<string>();
  const collect = async () => {
    for (const href of await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href') ?? '')))
      hrefs.add(href);
  };
  await collect();
  const menus = page.getByRole('banner').getByRole('button', { name: HEADER_MENUS });
  for (let i = 0; i < (await menus.count()); i++) {
    await menus.nth(i).click();
    await page.getByRole('menu').waitFor();
    await collect();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'hidden' });
  }
  return [...hrefs].filter((h) => h.startsWith('/') && !h.startsWith('//') && !h.startsWith('/api/'));
}

/** One address per shape: numeric segments stand for any id. */
const shape = (path: string) => path.split(/[?#]/)[0].replace(/\/\d+(?=\/|$)/g, '/:id');

/**
 * Visits every menu entry and every link reachable from the home page as this user, and answers the pages that
 * show "Page not found" (or a known-missing page that exists now), with the page that linked there.
 */
async function walk(page: Page, credentials: Credentials): Promise<{ visited: number; dead: string[] }> {
  await signInViaApi(page, credentials, '/');
  await open(page, '/');
  const seen = new Set<string>(['/']);
  const queue: { path: string; from: string }[] = (await linksOn(page)).map((path) => ({ path, from: '/' }));
  const dead: string[] = [];
  let visited = 0;
  while (queue.length > 0 && visited < MAX_PAGES) {
    const { path, from } = queue.shift()!;
    if (seen.has(shape(path))) continue;
    seen.add(shape(path));
    visited++;
    await open(page, path);
    const missing = (await page.getByText(NOT_FOUND).count()) > 0;
    if (isKnownMissingPage(path)) {
      if (!missing) dead.push(`${path} (linked from ${from}) exists now: remove it from KNOWN_MISSING_PAGES`);
      continue;
    }
    if (missing) {
      dead.push(`${path} (linked from ${from}) shows "Page not found"`);
      continue;
    }
    for (const next of await linksOn(page))
      if (!seen.has(shape(next))) queue.push({ path: next, from: path });
  }
  return { visited, dead };
}

describe('no dead links: every menu entry and link reachable by a role leads to a page', () => {
  test('a customer', async ({ page }) => {
    const customer = await signUpViaApi('links');
    const admin = await login(adminCredentials());
    await apiCall(
      'POST',
      '/api/words/admin/grant',
      { user_id: customer.session.user.user_id, words: 1000 },
      admin.access_token,
    );
    // A conversation and a template, so their lists have links to follow.
    await apiCall('POST', '/api/conversations', { name: 'Links walk' }, customer.session.access_token);
    await apiCall(
      'POST',
      '/api/templates',
      { name: 'Links walk', description: 'A template', content: 'About [topic].' },
      customer.session.access_token,
    );
    const { visited, dead } = await walk(page, customer);
    expect(visited).toBeGreaterThan(5);
    expect(dead).toEqual([]);
  }, 180_000);

  test('a staff admin', async ({ page }) => {
    const { visited, dead } = await walk(page, adminCredentials());
    expect(visited).toBeGreaterThan(5);
    expect(dead).toEqual([]);
  }, 180_000);

  test('an organization Admin', async ({ page }) => {
    const orgAdmin = await signUpViaApi('links-org');
    await markEmailVerified(orgAdmin.email);
    const admin = await login(adminCredentials());
    const { organization } = await apiCall<{ organization: { organization_id: number } }>(
      'POST',
      '/api/organizations',
      { name: `Links Org ${Date.now().toString(36)}` },
      admin.access_token,
    );
    const { invitation } = await apiCall<{ invitation: { invitation_id: number } }>(
      'POST',
      `/api/user-organizations?organization_id=${organization.organization_id}`,
      {
        organization_id: organization.organization_id,
        name: orgAdmin.name,
        last_name: orgAdmin.last_name,
        email: orgAdmin.email,
        user_type_id: 1,
      },
      admin.access_token,
    );
    const session = await login(orgAdmin);
    await apiCall(
      'POST',
      `/api/organization-invitations/${invitation.invitation_id}/accept`,
      {},
      session.access_token,
    );
    // Working in the organization, as the switcher leaves it.
    await apiCall(
      'PUT',
      '/api/users',
      { default_organization: organization.organization_id },
      session.access_token,
    );
    const { visited, dead } = await walk(page, orgAdmin);
    expect(visited).toBeGreaterThan(5);
    expect(dead).toEqual([]);
  }, 180_000);
});
