import { notifications } from '@mantine/notifications';
import { registerTranslations, useSession } from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { en, es } from '../i18n';
import type { AdminConfigEntry } from './ConfigField';
import { SettingsPage as Page } from './SettingsPage';
import { UNLOCK_MS } from './useUnlocks';

registerTranslations('admin', { en, es });
// The first render of a file loads Mantine and the providers: allow more than the default second.
configure({ asyncUtilTimeout: 5000 });

/** Like the shell: the remote's screen mounts once the session and its organization are settled. */
function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}
const SettingsPage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

afterEach(() => {
  notifications.clean();
  jest.useRealTimers();
});

const admin = testUser({ staff: { staff_id: 1, role: 'admin' } });
const manager = testUser({ staff: { staff_id: 2, role: 'manager' } });

const CONFIG: AdminConfigEntry[] = [
  { key: 'app_name', value: 'Avatar Studio', secret: false, type: 'string', group: 'Content' },
  { key: 'tagline', value: 'Your AI content team', secret: false, type: 'string', group: 'Content' },
  { key: 'primary_color', value: '#7048e8', secret: false, type: 'color', group: 'Content' },
  { key: 'signup_enabled', value: 'true', secret: false, type: 'boolean', group: 'Content' },
  { key: 'landing_enabled', value: 'false', secret: false, type: 'boolean', group: 'Content' },
  { key: 'openai_model', value: 'gpt-4o-mini', secret: false, type: 'string', group: 'Advanced' },
  { key: 'openai_secret_key', value: '••••••••9f3c', secret: true, type: 'string', group: 'Advanced' },
  { key: 'welcome_email_webhook_url', value: null, secret: true, type: 'url', group: 'Advanced' },
  { key: 'firebaseConfig', value: null, secret: true, type: 'json', group: 'Advanced' },
  { key: 'super_fetch_prompt', value: 'Task: {Task}', secret: false, type: 'string', group: 'Super Fetch' },
];

function routes(config: AdminConfigEntry[] = CONFIG) {
  return {
    'GET /api/appconfig/admin': { body: { config } },
    'PUT /api/appconfig': { body: { config } },
  };
}

/** Types the current password into the unlock confirmation and confirms. */
async function confirmWithPassword(ui: ReturnType<typeof userEvent.setup>, password = 'my-password') {
  const dialog = await screen.findByRole('dialog', { name: 'Are you sure to edit this setting?' });
  await ui.type(within(dialog).getByLabelText('Current password'), password);
  await ui.click(within(dialog).getByRole('button', { name: 'Yes, edit' }));
}

async function openAdvanced(ui: ReturnType<typeof userEvent.setup>) {
  await ui.click(await screen.findByRole('tab', { name: 'Advanced' }));
  return screen.findByLabelText('OpenAI API key');
}

describe('Admin settings', () => {
  it('builds the Content, Advanced and Super Fetch tabs from the admin config, inputs by type', async () => {
    renderWithProviders(<SettingsPage />, { user: admin, routes: routes() });
    expect(await screen.findByLabelText('App name')).toHaveValue('Avatar Studio');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Content',
      'Advanced',
      'Super Fetch',
    ]);
    expect(screen.getByRole('switch', { name: 'Sign-up enabled' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Landing page enabled' })).not.toBeChecked();
    expect(screen.getByLabelText('Primary colour')).toHaveValue('#7048e8');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    const ui = userEvent.setup();
    await ui.click(screen.getByRole('tab', { name: 'Super Fetch' }));
    const prompt = await screen.findByLabelText('Super Fetch base prompt');
    expect(prompt.tagName).toBe('TEXTAREA');
    expect(prompt).toHaveValue('Task: {Task}');
  });

  it('saves only the changed keys, then re-reads the public config (page title)', async () => {
    const saved = CONFIG.map((e) =>
      e.key === 'app_name'
        ? { ...e, value: 'Muse' }
        : e.key === 'landing_enabled'
          ? { ...e, value: 'true' }
          : e,
    );
    let publicName = 'Avatar Studio';
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: admin,
      routes: { ...routes(), 'PUT /api/appconfig': { body: { config: saved } } },
    });
    fetch.route({
      'GET /api/appconfig': () => ({
        body: {
          config: [
            { key: 'app_name', value: publicName },
            { key: 'tagline', value: 'Your AI content team' },
          ],
        },
      }),
    });
    const ui = userEvent.setup();
    const name = await screen.findByLabelText('App name');
    await waitFor(() => expect(document.title).toBe('Avatar Studio | Your AI content team'));
    await ui.clear(name);
    await ui.type(name, 'Muse');
    await ui.click(screen.getByRole('switch', { name: 'Landing page enabled' }));
    expect(screen.getByText('2 unsaved changes')).toBeInTheDocument();

    publicName = 'Muse';
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/appconfig')).toHaveLength(1);
    expect(fetch.callsTo('PUT /api/appconfig')[0].body).toEqual({
      config: [
        { key: 'app_name', value: 'Muse' },
        { key: 'landing_enabled', value: 'true' },
      ],
    });
    await waitFor(() => expect(document.title).toBe('Muse | Your AI content team'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('shows the server message when saving fails', async () => {
    renderWithProviders(<SettingsPage />, {
      user: admin,
      routes: {
        ...routes(),
        'PUT /api/appconfig': {
          status: 422,
          body: {
            statusCode: 422,
            message: 'primary_color must be a colour like #1a2b3c.',
            error: 'x',
            code: 'x',
          },
        },
      },
    });
    const ui = userEvent.setup();
    const name = await screen.findByLabelText('App name');
    await ui.type(name, '!');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('primary_color must be a colour like #1a2b3c.')).toBeInTheDocument();
  });

  it('keeps protected fields locked until an admin confirms, and shows no masked secret as a value', async () => {
    renderWithProviders(<SettingsPage />, { user: admin, routes: routes() });
    const ui = userEvent.setup();
    const key = await openAdvanced(ui);
    expect(key).toBeDisabled();
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', 'Stored (••••••••9f3c). Type a new value to replace it.');
    expect(screen.getByLabelText('Welcome email webhook URL')).toBeDisabled();
    expect(screen.getByLabelText('OpenAI model')).toBeEnabled();

    await ui.click(screen.getByRole('button', { name: 'Edit OpenAI API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure to edit this setting?' });
    expect(within(dialog).getByText(/A wrong value can cause issues/)).toBeInTheDocument();
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('OpenAI API key')).toBeDisabled();

    await ui.click(screen.getByRole('button', { name: 'Edit OpenAI API key' }));
    await confirmWithPassword(ui);
    await waitFor(() => expect(screen.getByLabelText('OpenAI API key')).toBeEnabled());
    expect(screen.queryByRole('button', { name: 'Edit OpenAI API key' })).not.toBeInTheDocument();
    // Only that field: the others stay locked.
    expect(screen.getByLabelText('Welcome email webhook URL')).toBeDisabled();
  });

  it('locks a protected field again 10 s after the last edit, keeping the edit for Save', async () => {
    jest.useFakeTimers();
    const { fetch } = renderWithProviders(<SettingsPage />, { user: admin, routes: routes() });
    const ui = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await openAdvanced(ui);
    await ui.click(screen.getByRole('button', { name: 'Edit OpenAI API key' }));
    await confirmWithPassword(ui);
    const key = screen.getByLabelText('OpenAI API key');
    await waitFor(() => expect(key).toBeEnabled());

    act(() => jest.advanceTimersByTime(6000));
    await ui.type(key, 'sk-new');
    // 9.9 s after the last keystroke (15.9 s after unlocking): still open.
    act(() => jest.advanceTimersByTime(UNLOCK_MS - 100));
    expect(key).toBeEnabled();
    await ui.type(key, '-1');
    act(() => jest.advanceTimersByTime(UNLOCK_MS - 1));
    expect(key).toBeEnabled();
    act(() => jest.advanceTimersByTime(1));
    expect(key).toBeDisabled();
    expect(key).toHaveValue('sk-new-1');
    expect(screen.getByRole('button', { name: 'Edit OpenAI API key' })).toBeInTheDocument();

    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/appconfig')).toHaveLength(1));
    expect(fetch.callsTo('PUT /api/appconfig')[0].body).toEqual({
      config: [{ key: 'openai_secret_key', value: 'sk-new-1' }],
      password: 'my-password',
    });
  });

  it('unlocks a protected field only once the current password is typed', async () => {
    renderWithProviders(<SettingsPage />, { user: admin, routes: routes() });
    const ui = userEvent.setup();
    await openAdvanced(ui);
    await ui.click(screen.getByRole('button', { name: 'Edit OpenAI API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure to edit this setting?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Yes, edit' }));
    expect(
      await within(dialog).findByText('Please type your current password to confirm.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('OpenAI API key')).toBeDisabled();
  });

  it('sends no password when only plain settings change', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, { user: admin, routes: routes() });
    const ui = userEvent.setup();
    await openAdvanced(ui);
    await ui.click(screen.getByRole('button', { name: 'Edit OpenAI API key' }));
    await confirmWithPassword(ui);
    await ui.clear(screen.getByLabelText('OpenAI model'));
    await ui.type(screen.getByLabelText('OpenAI model'), 'gpt-x');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/appconfig')).toHaveLength(1));
    expect(fetch.callsTo('PUT /api/appconfig')[0].body).toEqual({
      config: [{ key: 'openai_model', value: 'gpt-x' }],
    });
  });

  it('asks for the password again when the server refuses it, then saves with the new one', async () => {
    let tries = 0;
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: admin,
      routes: {
        ...routes(),
        'PUT /api/appconfig': () =>
          ++tries === 1
            ? {
                status: 403,
                body: {
                  statusCode: 403,
                  code: 'password_incorrect',
                  message: 'Your current password is not correct. Please type it again.',
                  error: 'Forbidden',
                },
              }
            : { body: { config: CONFIG } },
      },
    });
    const ui = userEvent.setup();
    await openAdvanced(ui);
    await ui.click(screen.getByRole('button', { name: 'Edit OpenAI API key' }));
    await confirmWithPassword(ui, 'typo');
    await ui.type(screen.getByLabelText('OpenAI API key'), 'sk-new');
    await ui.click(screen.getByRole('button', { name: 'Save' }));

    const again = await screen.findByRole('dialog', { name: 'Confirm with your password' });
    expect(
      within(again).getByText('Your current password is not correct. Please type it again.'),
    ).toBeInTheDocument();
    await ui.type(within(again).getByLabelText('Current password'), 'right-one');
    await ui.click(within(again).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/appconfig').map((c) => c.body)).toEqual([
      { config: [{ key: 'openai_secret_key', value: 'sk-new' }], password: 'typo' },
      { config: [{ key: 'openai_secret_key', value: 'sk-new' }], password: 'right-one' },
    ]);
  });

  it('locks an unlocked field 10 s after unlocking when it is not edited', async () => {
    jest.useFakeTimers();
    renderWithProviders(<SettingsPage />, { user: admin, routes: routes() });
    const ui = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await openAdvanced(ui);
    await ui.click(screen.getByRole('button', { name: 'Edit Firebase config (JSON)' }));
    await confirmWithPassword(ui);
    const field = screen.getByLabelText('Firebase config (JSON)');
    await waitFor(() => expect(field).toBeEnabled());
    expect(field.tagName).toBe('TEXTAREA');
    act(() => jest.advanceTimersByTime(UNLOCK_MS));
    expect(field).toBeDisabled();
  });

  it('shows no Edit control to a staff member who is not an admin', async () => {
    renderWithProviders(<SettingsPage />, { user: manager, routes: routes() });
    const ui = userEvent.setup();
    const key = await openAdvanced(ui);
    expect(key).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.getAllByText('Locked: only an admin can unlock this setting.').length).toBeGreaterThan(0);
  });
});
