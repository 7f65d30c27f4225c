import { apiCall, setAppConfig, signUpViaApi, login } from '../support/api';
import { signInViaApi, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

describe('welcome video modal', () => {
  beforeAll(() => setAppConfig({ intro_video_url: 'https://videos.example.com/welcome.mp4' }));
  afterAll(() => setAppConfig({ intro_video_url: null }));

  test('the welcome modal shows once and never again after "don\'t show"', async ({ page, browser }) => {
    const customer = await signUpViaApi('welcome');
    const signedInAt = Date.now();
    await signInViaApi(page, customer, '/');
    const modal = page.getByRole('dialog', { name: 'Welcome!' });
    await modal.waitFor();
    // About a second after the signed-in frame shows, not at once.
    expect(Date.now() - signedInAt).toBeGreaterThanOrEqual(1000);
    await modal.getByRole('link', { name: 'Watch the welcome video' }).waitFor();
    await modal.getByRole('button', { name: 'Dismiss' }).click();
    await modal.waitFor({ state: 'hidden' });
    // Dismissed: not again in this session.
    await page.reload();
    await page.getByRole('button', { name: 'User menu' }).waitFor();
    await page.waitForTimeout(2000);
    expect(await modal.count()).toBe(0);

    // The next sign-in shows it again; "Don't show again" turns show_video off for good.
    const second = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const next = await second.newPage();
    await signInViaApi(next, customer, '/');
    const again = next.getByRole('dialog', { name: 'Welcome!' });
    await again.waitFor();
    await again.getByRole('button', { name: "Don't show again" }).click();
    await again.waitFor({ state: 'hidden' });
    await second.close();
    const { access_token } = await login(customer);
    const me = await apiCall<{ user: { show_video: boolean } }>('GET', '/api/users', undefined, access_token);
    expect(me.user.show_video).toBe(false);

    const third = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const last = await third.newPage();
    await signInViaApi(last, customer, '/');
    await last.waitForTimeout(2500);
    expect(await last.getByRole('dialog', { name: 'Welcome!' }).count()).toBe(0);
    await third.close();
  }, 90_000);
});
