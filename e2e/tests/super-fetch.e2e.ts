import { adminCredentials, apiCall, login, setAppConfig, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

describe('Super Fetch', () => {
  test('a user fills Super Fetch, generates 2 outputs, gives feedback and regenerates', async ({ page }) => {
    // Staff always have access; the fake provider answers every output with FAKE_REPLY.
    await signInViaApi(page, adminCredentials(), '/super-fetch');
    const create = page.getByRole('button', { name: 'Create my Super Fetch assistant' });
    const task = page.getByRole('textbox', { name: label('Task') });
    await Promise.race([create.waitFor(), task.waitFor()]);
    if (await create.isVisible()) await create.click();
    await task.waitFor();
    // Reset forgets earlier runs' history (and what the assistant learned from it).
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByText('Super Fetcch reset.').waitFor();

    await expectAccessible(page, 'Super Fetch form');

    // A required input left empty blocks generating.
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText("The value can't be empty").first().waitFor();

    const run = Date.now().toString(36);
    for (const [name, value] of [
      ['Task', 'Write a LinkedIn post'],
      ['Topic', `Cold brew ${run}`],
      ['Target Audience', 'Students'],
      ['Persona', 'A friendly barista'],
      ['Tone', 'Warm'],
      ['Formula', 'AIDA'],
    ])
      await page.getByRole('textbox', { name: label(name) }).fill(value);
    expect(await page.getByText("The value can't be empty").count()).toBe(0);
    await page.getByRole('textbox', { name: 'Outputs' }).fill('2');

    const first = page.waitForResponse(
      (r) => r.url().includes('/api/super_fetch/v2') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    expect((await first).status()).toBe(202);
    const outputs = page.getByRole('region', { name: 'Outputs' });
    for (const n of [1, 2])
      await outputs
        .getByRole('article', { name: `Output ${n}` })
        .getByText(FAKE_REPLY, { exact: true })
        .waitFor({ timeout: 30_000 });

    await expectAccessible(page, 'Super Fetch with outputs and the feedback form');

    // Feedback: the retry text must not be empty, then the outputs are generated again with it.
    const feedback = page.getByRole('form', { name: 'How was it?' });
    await feedback.getByRole('button', { name: 'I don’t like it' }).click();
    await feedback.getByRole('button', { name: 'Regenerate' }).click();
    await feedback.getByText("The value can't be empty").waitFor();
    await feedback.getByRole('textbox', { name: label('What should change?') }).fill('Make it shorter');
    const again = page.waitForResponse(
      (r) => r.url().includes('/api/super_fetch/v2') && r.request().method() === 'POST',
    );
    await feedback.getByRole('button', { name: 'Regenerate' }).click();
    const response = await again;
    expect(response.status()).toBe(202);
    const { generation_ids } = (await response.json()) as { generation_ids: string[] };
    expect(generation_ids).toHaveLength(2);
    for (const n of [1, 2])
      await outputs
        .getByRole('article', { name: `Output ${n}` })
        .getByText(FAKE_REPLY, { exact: true })
        .waitFor({ timeout: 30_000 });

    // The history holds the outputs of both requests; Back to Edit keeps the inputs.
    await page.getByRole('switch', { name: 'History' }).check();
    await outputs.getByText(FAKE_REPLY, { exact: true }).nth(3).waitFor({ timeout: 10_000 });
    expect(await outputs.getByText(FAKE_REPLY, { exact: true }).count()).toBe(4);
    // The second request carried the feedback, appended to its prompt as requested changes.
    const { access_token } = await login(adminCredentials());
    const assistants = await apiCall<{ avatars: { assistant_id: string }[] }>(
      'GET',
      '/api/avatars/super-fetch',
      undefined,
      access_token,
    );
    const history = await apiCall<{ messages: { role: string; content: string; liked: boolean | null }[] }>(
      'GET',
      `/api/super_fetch/messages/${assistants.avatars[0].assistant_id}`,
      undefined,
      access_token,
    );
    const prompts = history.messages.filter((m) => m.role === 'user');
    expect(prompts).toHaveLength(2);
    expect(prompts[1].liked).toBe(false);
    expect(prompts[1].content).toContain('Requested changes: Make it shorter');
    expect(prompts[1].content).toContain(`Cold brew ${run}`);
    await page.getByRole('button', { name: 'Back to Edit' }).click();
    expect(await page.getByRole('textbox', { name: label('Topic') }).inputValue()).toBe(`Cold brew ${run}`);
  }, 120_000);

  test('switched off: the menu entry is gone and the address says so; on again, both are back', async ({
    page,
  }) => {
    const customer = await signUpViaApi('superfetch');
    await setAppConfig({ super_fetch: 'false' });
    try {
      await signInViaApi(page, customer, '/super-fetch');
      await page.getByRole('heading', { name: 'This feature is switched off', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Chats', exact: true }).waitFor();
      expect(await page.getByRole('link', { name: 'Super Fetch', exact: true }).count()).toBe(0);
    } finally {
      await setAppConfig({ super_fetch: 'true' });
    }
    await page.goto('/super-fetch');
    await page.getByRole('link', { name: 'Super Fetch', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create my Super Fetch assistant' }).waitFor();
  }, 60_000);
});
