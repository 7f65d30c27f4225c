import { adminCredentials } from '../support/api';
import { label, signInViaApi, useBrowser } from '../support/fixtures';
import { FAKE_REPLY } from '../support/server';

const { test } = useBrowser();

const FACT = 'The launch code of Project Bluefin is 7731-ORCA.';
const filler = (topic: string) =>
  Array.from(
    { length: 12 },
    (_, i) =>
      `Paragraph ${i} about ${topic}: the team reviewed budgets, schedules and staffing for the quarter.`,
  ).join('\n\n');

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
});
