import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { adminCredentials, apiCall, login, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { FAKE_REPLY, readState } from '../support/server';

const { test } = useBrowser();

/**
 * A third-party site on its own local port: its page embeds the snippet, and its styles try hard to restyle
 * every button, text box and list (none of it may reach the widget).
 */
async function hostSite(): Promise<{
  origin: string;
  embed: (snippet: string) => void;
  close: () => Promise<void>;
}> {
  let snippet = '';
  const page = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shoe shop</title>
<style>
  * { font-family: "Comic Sans MS", cursive !important; letter-spacing: 6px !important; }
  button, textarea, li, section, h2, form, ol { background: #000000 !important; color: #ffffff !important;
    border: 9px dotted orange !important; border-radius: 0 !important; width: 300px !important;
    font-size: 40px !important; padding: 30px !important; }
</style></head>
<body><h1>Handmade shoes</h1><button id="host-button">Host page button</button>
${snippet}
</body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    embed: (html) => (snippet = html),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The owner's widget, made the way the generator makes it (POST /api/widgets), with its snippet. */
async function ownersWidget(allowedOrigins: string[]) {
  const owner = await signUpViaApi('widget-owner');
  await apiCall(
    'POST',
    '/api/words/admin/grant',
    { user_id: owner.session.user.user_id, words: 10_000 },
    (await login(adminCredentials())).access_token,
  );
  const { avatar } = await apiCall<{ avatar: { avatar_id: number } }>(
    'POST',
    '/api/avatars',
    { name: 'Shoe helper', context: 'You help visitors of a shoe shop.' },
    owner.session.access_token,
  );
  const widget = await apiCall<{ public_key: string; user_id: number; avatar_id: number }>(
    'POST',
    '/api/widgets',
    {
      avatar_id: avatar.avatar_id,
      name: 'Shop chat',
      accent_color: '#1f3a93',
      allowed_origins: allowedOrigins,
    },
    owner.session.access_token,
  );
  const app = readState().baseUrl;
  const snippet =
    `<link rel="stylesheet" href="${app}/widget/widget.css">` +
    `<div id="avatar-studio-widget" data-user-id="${widget.user_id}" data-avatar-id="${widget.avatar_id}" ` +
    `data-accent-color="1f3a93" data-widget-name="Shop chat" data-image="" data-widget-key="${widget.public_key}"></div>` +
    `<script src="${app}/widget/widget.js" defer></script>`;
  return { owner, widget, snippet };
}

const launcher = (page: Page) => page.getByRole('button', { name: 'Open chat: Shop chat' });

describe('chat widget on another site', () => {
  test('a visitor asks, sees the streamed answer, keeps the conversation across reloads; host styles do not reach the widget; a third site is refused', async ({
    page,
  }) => {
    const site = await hostSite();
    const third = await hostSite();
    const made = await ownersWidget([site.origin]);
    site.embed(made.snippet);
    third.embed(made.snippet);
    try {
      await page.goto(`${site.origin}/`);
      const open = launcher(page);
      await open.waitFor();
      // The host page's rules restyled its own button, never the widget's.
      const style = await open.evaluate((el) => {
        const s = getComputedStyle(el);
        return { width: s.width, radius: s.borderRadius, background: s.backgroundColor, font: s.fontFamily };
      });
      expect(style).toEqual({
        width: '60px',
        radius: '50%',
        background: 'rgb(31, 58, 147)',
        font: expect.not.stringContaining('Comic'),
      });
      expect(await page.locator('#host-button').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        'rgb(0, 0, 0)',
      );

      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Shop chat' });
      await dialog.waitFor();
      expect(await open.getAttribute('aria-expanded')).toBe('true');
      const box = dialog.getByRole('textbox', { name: 'Type your message' });
      await box.fill('Do you ship abroad?');
      await box.press('Enter');
      await dialog.getByText(FAKE_REPLY, { exact: true }).waitFor({ timeout: 30_000 });
      // Nothing the page sets on every element is inherited into the widget's text either.
      const answerText = await dialog
        .getByText(FAKE_REPLY, { exact: true })
        .evaluate((el) => [getComputedStyle(el).letterSpacing, getComputedStyle(el).fontFamily]);
      expect(answerText[0]).toBe('normal');
      expect(answerText[1]).toContain('system-ui');
      // axe-core checks the open widget (inside its shadow root) on the host page.
      await expectAccessible(page, 'the chat widget on a host page');
      expect(
        await dialog.getByRole('button', { name: 'Send' }).evaluate((el) => getComputedStyle(el).fontSize),
      ).not.toBe('40px');

      // A reload of the host page goes on with the same conversation.
      await page.reload();
      await launcher(page).click();
      await page.getByRole('dialog', { name: 'Shop chat' }).getByText('Do you ship abroad?').waitFor();
      await page.getByRole('dialog', { name: 'Shop chat' }).getByText(FAKE_REPLY, { exact: true }).waitFor();
      // Escape closes the chat and gives the focus back to its button.
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Shop chat' }).waitFor({ state: 'hidden' });

      // The same snippet on a site the owner did not allow: the browser is refused and nothing is answered.
      await page.goto(`${third.origin}/`);
      await launcher(page).click();
      const refused = page.getByRole('dialog', { name: 'Shop chat' });
      await refused
        .getByRole('alert')
        .getByText('The chat could not be reached. Please try again later.')
        .waitFor();
      const usage = await apiCall<{ widgets: { usage: { conversations: number; messages: number } }[] }>(
        'GET',
        '/api/widgets',
        undefined,
        made.owner.session.access_token,
      );
      expect(usage.widgets[0].usage).toMatchObject({ conversations: 1, messages: 2 });
    } finally {
      await site.close();
      await third.close();
    }
  }, 120_000);

  test('the owner generates a widget in the generator and copies its code', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const owner = await signUpViaApi('widget-generator');
    await apiCall(
      'POST',
      '/api/words/admin/grant',
      { user_id: owner.session.user.user_id, words: 1000 },
      (await login(adminCredentials())).access_token,
    );
    await apiCall('POST', '/api/avatars', { name: 'Greeter' }, owner.session.access_token);
    await signInViaApi(page, owner, '/chat-widget-generator');
    await page.getByRole('heading', { name: 'Chat widget generator' }).waitFor();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText('Please select an Avatar').waitFor();
    await page.getByRole('textbox', { name: label('Avatar') }).click();
    await page.getByRole('option', { name: 'Greeter' }).click();
    await page.getByRole('textbox', { name: label('Widget name') }).fill('Front desk');
    // The live preview is the widget's own federated module: it follows the form and opens no session.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('button', { name: 'Open chat: Front desk' }).waitFor();
    await preview.getByRole('dialog', { name: 'Front desk' }).waitFor({ state: 'visible' });
    expect(await preview.getByRole('alert').textContent()).toMatch(/^Preview:/);
    const accent = page.getByRole('textbox', { name: 'Accent colour' });
    await accent.fill('#0055aa');
    const colourOf = () =>
      preview
        .getByRole('button', { name: 'Open chat: Front desk' })
        .evaluate((button) => getComputedStyle(button).backgroundColor);
    for (let i = 0; i < 50 && (await colourOf()) !== 'rgb(0, 85, 170)'; i++) await page.waitForTimeout(100);
    expect(await colourOf()).toBe('rgb(0, 85, 170)');
    await expectAccessible(page, 'chat widget generator with its live preview');
    await accent.fill('#ff0000');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText('Front desk Widget Generated').waitFor();
    await page.getByRole('button', { name: 'Copy code' }).click();
    await page.getByText('Avatar widget code copied to clipboard!').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/data-widget-key="wk_[0-9a-f]{24}"/);
    expect(copied).toContain('data-accent-color="ff0000"');
    expect(copied).toContain(`${readState().baseUrl}/widget/widget.js`);
  }, 90_000);
});
