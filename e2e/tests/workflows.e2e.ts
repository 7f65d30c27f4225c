import { adminCredentials, apiCall, login, signUpViaApi } from '../support/api';
import { label, signInViaApi, until, useBrowser } from '../support/fixtures';
import { FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

interface Created {
  template: { template_id: number };
}

/** Staff authoring through the API: two templates (one with a select placeholder) and a workflow running both. */
async function createWorkflow(
  adminToken: string,
  suffix: string,
): Promise<{ name: string; steps: string[] }> {
  const steps = [`Outline ${suffix}`, `Tweet ${suffix}`];
  const outline = await apiCall<Created>(
    'POST',
    '/api/templates',
    {
      name: steps[0],
      description: 'An outline of the post',
      content: 'Write a [tone[formal/casual]] outline about [topic].',
      // A workflow may use only templates its runners can see.
      public: true,
    },
    adminToken,
  );
  const tweet = await apiCall<Created>(
    'POST',
    '/api/templates',
    {
      name: steps[1],
      description: 'A tweet announcing it',
      content: 'Write a tweet about [topic].',
      public: true,
    },
    adminToken,
  );
  const name = `Blog launch ${suffix}`;
  await apiCall(
    'POST',
    '/api/workflows',
    {
      name,
      description: 'Plan and announce a blog post.',
      tags: ['blog', 'e2e'],
      template_ids: [outline.template.template_id, tweet.template.template_id],
    },
    adminToken,
  );
  return { name, steps };
}

describe('workflows (001 §2 /workflows, /user_workflows)', () => {
  test('a customer with words starts a workflow, sees every step generated, and regenerates one', async ({
    page,
  }) => {
    const admin = await login(adminCredentials());
    const suffix = Date.now().toString(36);
    const { name, steps } = await createWorkflow(admin.access_token, suffix);

    // A customer who can generate: an admin grant gives has_access.
    const customer = await signUpViaApi('workflows');
    await apiCall(
      'POST',
      '/api/words/admin/grant',
      { user_id: customer.session.user.user_id, words: 100_000 },
      admin.access_token,
    );

    await signInViaApi(page, customer, '/workflows');
    await page.getByRole('heading', { name: 'Workflows', exact: true }).waitFor();
    await page.getByText(name, { exact: true }).click();
    await page.waitForURL(/\/workflows\/\d+$/);
    await page.getByRole('heading', { name, exact: true }).waitFor();
    const stepList = page.getByRole('list', { name: 'Steps' });
    await stepList.getByText(steps[0], { exact: true }).waitFor();
    await stepList.getByText(steps[1], { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Start ${name}` });
    await dialog.waitFor();
    // Every value is required; the select starts at its first option.
    await dialog.getByRole('button', { name: 'Start', exact: true }).click();
    await dialog.getByText("The input can't be empty", { exact: true }).waitFor();
    expect(await dialog.getByLabel(label('tone')).inputValue()).toBe('formal');
    await dialog.getByLabel(label('topic')).fill('cats');
    await dialog.getByRole('button', { name: 'Start', exact: true }).click();
    await page.waitForURL(/\/user_workflows\/\d+$/);

    // The steps run one after the other in the background; the page follows them over the socket.
    await page.getByText('2/2 steps done', { exact: true }).waitFor({ timeout: 30_000 });
    for (const step of steps) {
      expect(await page.getByRole('link', { name: `View content: ${step}`, exact: true }).count()).toBe(1);
    }

    await page.getByRole('link', { name: `View content: ${steps[0]}`, exact: true }).click();
    await page.waitForURL(/\/user_workflows\/\d+\/conversation\/\d+$/);
    await page.getByRole('heading', { name: steps[0], exact: true }).waitFor();
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor();
    // The staff's prompt is not shown to the customer.
    expect(await page.getByText(/outline about cats/).count()).toBe(0);

    const regenerate = page.getByRole('button', { name: 'Regenerate', exact: true });
    expect(await regenerate.isEnabled()).toBe(true);
    await regenerate.click();
    // The step's conversation is emptied and generated again: the button waits for it to end.
    await until('Regenerate to be disabled while generating', () => regenerate.isDisabled(), 5_000);
    await until('Regenerate to be enabled again', () => regenerate.isEnabled(), 30_000);
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor();
    expect(await page.getByText(FAKE_REPLY, { exact: true }).count()).toBe(1);

    // Back leads to the user workflow, which is listed under My workflows.
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await page.waitForURL(/\/user_workflows\/\d+$/);
    await page.getByText('2/2 steps done', { exact: true }).waitFor();
    await page.goto('/user_workflows');
    await page.getByRole('heading', { name: 'My workflows', exact: true }).waitFor();
    await page.getByText(name, { exact: true }).waitFor();
  }, 120_000);
});
