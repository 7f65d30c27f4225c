import { adminCredentials, apiCall, login, signUpViaApi, type SessionPair } from '../support/api';
import { expectAccessible } from '../support/axe';
import { label, signInViaApi, until, useBrowser } from '../support/fixtures';
import { FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

const FACT = 'The launch code of Project Bluefin is 7731-ORCA.';
const filler = (topic: string) =>
  Array.from(
    { length: 12 },
    (_, i) =>
      `Paragraph ${i} about ${topic}: the team reviewed budgets, schedules and staffing for the quarter.`,
  ).join('\n\n');

/** A customer with words to spend (refine and combine are premium, and refine is metered). */
async function customerWithWords(prefix: string) {
  const customer = await signUpViaApi(prefix);
  await apiCall(
    'POST',
    '/api/words/admin/grant',
    { user_id: customer.session.user.user_id, words: 100_000 },
    (await login(adminCredentials())).access_token,
  );
  return customer;
}

async function createAvatar(session: SessionPair, name: string, context: string): Promise<number> {
  const { avatar } = await apiCall<{ avatar: { avatar_id: number } }>(
    'POST',
    '/api/avatars',
    { name, context },
    session.access_token,
  );
  return avatar.avatar_id;
}

/** A training of the avatar, executed through the API until the fake model has written its style guide. */
async function executedTraining(session: SessionPair, avatar_id: number, name: string): Promise<void> {
  const { file } = await apiCall<{ file: { file_id: number } }>(
    'POST',
    '/api/files',
    {
      name: 'verses.txt',
      content: 'Roses are red, the sea is blue.\nThe gulls fly high, the sails are new.',
    },
    session.access_token,
  );
  const { training } = await apiCall<{ training: { training_id: number } }>(
    'POST',
    '/api/trainings',
    { name, avatar_id, file_id: file.file_id },
    session.access_token,
  );
  await apiCall(
    'POST',
    '/api/trainings/execute',
    { training_id: training.training_id },
    session.access_token,
  );
  await until(
    `training ${training.training_id} to be executed`,
    async () => {
      const { training: now } = await apiCall<{ training: { style_guide: string } }>(
        'GET',
        `/api/trainings/${training.training_id}`,
        undefined,
        session.access_token,
      );
      return now.style_guide.trim() !== '';
    },
    60_000,
  );
}

describe('avatars', () => {
  test('create an avatar, upload a file with a planted fact, ask about it and see the answer cite the file', async ({
    page,
  }) => {
    // Staff always have access.
    await signInViaApi(page, adminCredentials(), '/avatars');
    await page.getByRole('heading', { name: 'My Avatars', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add avatar', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add avatar' });
    await dialog.getByLabel(label('Name')).fill(`Archivist ${Date.now().toString(36)}`);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/avatars\/\d+$/);

    // An empty context comes first; the files panel appears once the context is saved.
    await page.getByLabel(label('Context')).fill('You are the archivist of Project Bluefin.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const upload = page.getByRole('button', { name: 'Upload a file', exact: true });
    await upload.waitFor();

    // The files panel's own picker (the chat has another, for a document sent with a message).
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), upload.click()]);
    await chooser.setFiles({
      name: 'bluefin.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${filler('engineering')}\n\n${FACT}\n\n${filler('operations')}`),
    });
    await page.getByText('bluefin.txt', { exact: true }).waitFor();
    await page.getByText(/^Ready \(\d+ passages\)$/).waitFor({ timeout: 30_000 });

    await page.getByLabel(label('Message')).fill('What is the launch code of Project Bluefin?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor({ timeout: 30_000 });

    // The answer lists the file it was given; clicking it shows the passage with the fact.
    const cited = page.getByRole('navigation', { name: 'From the avatar’s files' });
    const source = cited.getByRole('button', { name: '[1] bluefin.txt' });
    await source.click();
    await cited.getByText(FACT).waitFor();

    // After a reload the thread still holds the question, the answer and its citation.
    await page.reload();
    await page.getByText('What is the launch code of Project Bluefin?', { exact: true }).waitFor();
    await page.getByRole('button', { name: '[1] bluefin.txt' }).waitFor();
  }, 120_000);

  test('train an avatar on a dataset: the run shows its progress and ends ready; its style writes a rated output', async ({
    page,
  }) => {
    await signInViaApi(page, adminCredentials(), '/avatars');
    await page.getByRole('button', { name: 'Add avatar', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add avatar' });
    await dialog.getByLabel(label('Name')).fill(`Harbour ${Date.now().toString(36)}`);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/avatars\/\d+$/);

    // An empty context offers a training first.
    await page.getByRole('button', { name: 'Start training', exact: true }).click();
    await page.waitForURL(/\/avatars\/\d+\/trainings$/);
    await page.getByLabel(label('Name')).fill('Harbour posts');
    await page.locator('input[type="file"]').setInputFiles({
      name: 'posts.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(
        Array.from({ length: 30 }, (_, i) =>
          JSON.stringify({ prompt: `Post ${i}`, completion: `Ahoy crew! Boat ${i} is in the harbour.` }),
        ).join('\n'),
      ),
    });
    await page.getByRole('button', { name: 'Add training', exact: true }).click();
    await page.getByText('Harbour posts', { exact: true }).waitFor();
    await page.getByText('Not run yet', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Execute', exact: true }).click();
    await page.getByText('Executed.', { exact: true }).waitFor();
    await page.getByText('Ready', { exact: true }).waitFor({ timeout: 60_000 });
    // What the run learned: the style guide the model wrote.
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor();

    // The dataset is now one of the avatar's files.
    await page.getByRole('tab', { name: 'Outputs' }).click();
    await page.waitForURL(/\/avatars\/\d+\/outputs$/);
    await page.getByLabel(label('What should the avatar write?')).fill('A post about the harbour');
    await page.getByRole('textbox', { name: label('Write with the style of') }).click();
    await page.getByRole('option', { name: 'Harbour posts' }).click();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByText(FAKE_REPLY, { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Good', exact: true }).click();
    await page.getByLabel(label('Note for the training (optional)')).fill('Just right');
    await page.getByRole('button', { name: 'Rate', exact: true }).click();
    await page.getByText('Rated.', { exact: true }).waitFor();

    // Refine learns from the rating.
    await page.getByRole('tab', { name: 'Trainings' }).click();
    await page.getByRole('button', { name: 'Refine', exact: true }).click();
    await page.getByText('Refined.', { exact: true }).waitFor({ timeout: 30_000 });
  }, 150_000);

  test("refine an avatar from a rated output: its context becomes the model's rewrite and 'Refined.' shows", async ({
    page,
  }) => {
    const customer = await customerWithWords('refine');
    const avatar_id = await createAvatar(customer.session, 'Captain', 'You write about boats.');
    await apiCall(
      'POST',
      '/api/outputs',
      { avatar_id, prompt: 'A greeting', content: 'Ahoy, the boats are in.' },
      customer.session.access_token,
    );
    await signInViaApi(page, customer, `/avatars/${avatar_id}/outputs`);
    await page.getByText('Ahoy, the boats are in.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Good', exact: true }).click();
    await page.getByLabel(label('Note for the training (optional)')).fill('Lovely tone');
    await page.getByRole('button', { name: 'Rate', exact: true }).click();
    await page.getByText('Rated.', { exact: true }).waitFor();

    const context = page.getByRole('textbox', { name: label('Context') });
    expect(await context.inputValue()).toBe('You write about boats.');
    await page.getByRole('button', { name: 'Refine avatar', exact: true }).click();
    await page.getByText('Refined.', { exact: true }).waitFor({ timeout: 30_000 });
    // The page reloads the avatar: its context is the fake model's rewrite, on the server too.
    await until('the refined context on the page', async () => (await context.inputValue()) === FAKE_REPLY);
    const { avatar } = await apiCall<{ avatar: { context: string } }>(
      'GET',
      `/api/avatars/${avatar_id}`,
      undefined,
      customer.session.access_token,
    );
    expect(avatar.context).toBe(FAKE_REPLY);
    await expectAccessible(page, 'an avatar after Refine (its notice shown)');
  }, 90_000);

  test('combine two avatars with a training of the other: the dialog passes axe and the new avatar opens', async ({
    page,
  }) => {
    const customer = await customerWithWords('combine');
    const run = Date.now().toString(36);
    const captain = await createAvatar(customer.session, `Captain ${run}`, 'You are the captain.');
    const poet = await createAvatar(customer.session, `Poet ${run}`, 'You are a poet.');
    await executedTraining(customer.session, poet, 'Verses');

    await signInViaApi(page, customer, `/avatars/${captain}`);
    await page.getByRole('heading', { name: `Captain ${run}`, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Combine', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Combine with another avatar' });
    await dialog.getByRole('textbox', { name: label('Other avatar') }).waitFor();
    await expectAccessible(page, 'an avatar: the Combine dialog');

    await dialog.getByRole('textbox', { name: label('Other avatar') }).click();
    const poetOption = page.getByRole('option', { name: `Poet ${run}`, exact: true });
    await poetOption.waitFor();
    await expectAccessible(page, 'an avatar: the Combine dialog with its avatar list open');
    await poetOption.click();
    const training = dialog.getByRole('textbox', { name: label('Training of the other avatar') });
    await until('the training select to be enabled', () => training.isEnabled());
    await training.click();
    await page.getByRole('option', { name: 'Verses', exact: true }).click();
    await dialog.getByRole('textbox', { name: label('Name of the new avatar') }).fill(`Sea poet ${run}`);
    await expectAccessible(page, 'an avatar: the Combine dialog, filled in');
    await dialog.getByRole('button', { name: 'Combine', exact: true }).click();

    await page.getByText('Saved.', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: `Sea poet ${run}`, exact: true }).waitFor();
    const made = Number(/\/avatars\/(\d+)$/.exec(page.url())?.[1]);
    expect([captain, poet]).not.toContain(made);
    // The new avatar has both contexts and the training's style guide (the fake model's).
    const context = await page.getByRole('textbox', { name: label('Context') }).inputValue();
    expect(context).toContain('You are the captain.');
    expect(context).toContain('You are a poet.');
    expect(context).toContain(FAKE_REPLY);
    // It is one of the customer's avatars now, beside the two it came from.
    await page.goto('/avatars');
    await page.getByRole('heading', { name: 'My Avatars', exact: true }).waitFor();
    for (const name of [`Captain ${run}`, `Poet ${run}`, `Sea poet ${run}`])
      await page.getByText(name, { exact: true }).waitFor();
  }, 120_000);
});
