import { notifications } from '@mantine/notifications';
import { i18n, registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { fakeIo, renderWithProviders, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignedIn, staffAdmin, staffManager } from '../common/testing';
import { en, es } from '../i18n';
import type { SetupChecklist as Checklist, SetupItemEntry } from './api';
import { SetupBanner } from './SetupBanner';
import { SetupChecklist } from './SetupChecklist';
import { setupEn, setupEs } from './translations';

registerTranslations('admin', { en, es });
// A loaded machine can take seconds to refetch after a test; the waits stay bounded.
configure({ asyncUtilTimeout: 10000 });

let socket: ReturnType<typeof fakeIo>;
beforeEach(() => {
  socket = fakeIo();
  setRealtimeIo(socket.io);
  sessionStorage.clear();
});
afterEach(async () => {
  setRealtimeIo(null);
  notifications.clean();
  await act(() => i18n.changeLanguage('en'));
});

const item = (over: Partial<SetupItemEntry> & Pick<SetupItemEntry, 'item'>): SetupItemEntry => ({
  state: 'todo',
  required: false,
  testable: false,
  link: `/admin/settings?tab=Advanced&field=${over.item}`,
  detail: null,
  ...over,
});

const checklist = (
  over: Partial<Record<string, Partial<SetupItemEntry>>> = {},
  starter?: Checklist['starter'],
) => {
  const items = [
    item({
      item: 'ai',
      required: true,
      testable: true,
      link: '/admin/settings?tab=Advanced&field=openai_base_url',
    }),
    item({ item: 'storage', required: true, testable: true, state: 'untested', detail: 'disk' }),
    item({ item: 'branding', required: true, state: 'done', detail: 'Quill' }),
    item({ item: 'product', link: '/admin/products' }),
    item({ item: 'signup', state: 'done', detail: 'closed' }),
  ].map((entry) => ({ ...entry, ...over[entry.item] }));
  return {
    items,
    complete: items.filter((i) => i.required).every((i) => i.state === 'done'),
    starter: starter ?? { state: 'loaded' as const, templates: 62, workflows: 6 },
  };
};

function renderChecklist(routes: MockRoutes, user = staffAdmin) {
  return renderWithProviders(
    <SignedIn>
      <SetupChecklist />
    </SignedIn>,
    { user, routes },
  );
}

describe('Setup checklist', () => {
  it('shows each item with its state, its detail and a link to the field that sets it', async () => {
    renderChecklist({ 'GET /api/setup/checklist': { body: checklist() } });
    const ai = (await screen.findByText('AI provider')).closest('li')!;
    expect(within(ai as HTMLElement).getByText('To do')).toBeInTheDocument();
    expect(within(ai as HTMLElement).getByText('Required')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the setting of AI provider' })).toHaveAttribute(
      'href',
      '/admin/settings?tab=Advanced&field=openai_base_url',
    );
    expect(screen.getByText('Files are kept on this server’s disk.')).toBeInTheDocument();
    expect(screen.getByText('App name: Quill')).toBeInTheDocument();
    expect(screen.getByText('Sign-up is closed: only people you add can sign in.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the pricing page' })).toHaveAttribute('href', '/pricing');
    // Branding and sign-up are settings, not connections: no Test button.
    expect(screen.queryByRole('button', { name: 'Test Branding' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test File storage' })).toBeInTheDocument();
  });

  it('tests the AI provider: the streamed line appears, then the item turns done', async () => {
    const ui = userEvent.setup();
    let done = false;
    // The test's answer waits until the streamed line has been seen: the answer's own line replaces it.
    let answer = () => {};
    const streamedLineSeen = new Promise<void>((resolve) => (answer = resolve));
    const { fetch } = renderChecklist({
      'GET /api/setup/checklist': () => ({ body: checklist(done ? { ai: { state: 'done' } } : {}) }),
      'POST /api/setup/test/ai': async (call) => {
        const { test_id } = call.body as { test_id: string };
        // Another test's text (another tab) is not shown.
        socket.deliver('setup_test_output', { test_id: 'someone-else', delta: 'Nope. ' });
        socket.deliver('setup_test_output', { test_id, delta: 'Connected and ' });
        socket.deliver('setup_test_output', { test_id, delta: 'ready.' });
        await streamedLineSeen;
        done = true;
        return {
          body: {
            item: 'ai',
            ok: true,
            problem: null,
            message: 'It works.',
            warnings: [],
            models: ['gpt-4o-mini', 'gpt-4o'],
            answer: 'Connected and ready.',
          },
        };
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Test AI provider' }));
    expect(await screen.findByText('Answer: Connected and ready.')).toBeInTheDocument();
    expect(screen.queryByText(/Nope/)).not.toBeInTheDocument();
    answer();
    expect(await screen.findByText('It works.')).toBeInTheDocument();
    expect(screen.getByText('Answer: Connected and ready.')).toBeInTheDocument();
    expect(screen.getByText('2 models available.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('setup-state-ai')).toHaveTextContent('Done'));
    expect(fetch.callsTo('POST /api/setup/test/ai')[0].body).toEqual({
      test_id: expect.stringMatching(/^setup-/),
    });
  });

  it('says what failed and what to do, in the admin’s language', async () => {
    const ui = userEvent.setup();
    await act(() => i18n.changeLanguage('es'));
    renderChecklist({
      'GET /api/setup/checklist': { body: checklist() },
      'POST /api/setup/test/storage': {
        body: {
          item: 'storage',
          ok: false,
          problem: 'storage_write_failed',
          message: 'A file could not be saved.',
          warnings: [],
        },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Probar Almacenamiento de archivos' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(setupEs.problems.storage_write_failed);
  });

  it('removes the starter content after a confirmation', async () => {
    const ui = userEvent.setup();
    let removed = false;
    const { fetch } = renderChecklist({
      'GET /api/setup/checklist': () => ({
        body: checklist({}, removed ? { state: 'removed', templates: 0, workflows: 0 } : undefined),
      }),
      'DELETE /api/setup/starter-content': () => {
        removed = true;
        return { body: { state: 'removed', templates: 0, workflows: 0 } };
      },
    });
    expect(
      await screen.findByText(
        '62 starter templates and 6 workflows, in English and Spanish, are in the library.',
      ),
    ).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Remove starter content' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the starter content?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('The starter content was removed; it will not come back.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/setup/starter-content')).toHaveLength(1);
  });

  it('is not shown to staff who cannot change the settings', async () => {
    const { fetch } = renderChecklist({ 'GET /api/setup/checklist': { body: checklist() } }, staffManager);
    await waitFor(() => expect(fetch.callsTo('GET /api/users')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByText('Set up your studio')).not.toBeInTheDocument();
    expect(fetch.callsTo('GET /api/setup/checklist')).toHaveLength(0);
  });

  it('has the same texts in English and Spanish', () => {
    const keys = (tree: object, prefix = ''): string[] =>
      Object.entries(tree).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    expect(keys(setupEs).sort()).toEqual(keys(setupEn).sort());
  });
});

describe('Setup banner', () => {
  const renderBanner = (body: ReturnType<typeof checklist>, route = '/admin/users') =>
    renderWithProviders(
      <SignedIn>
        <SetupBanner />
      </SignedIn>,
      { user: staffAdmin, route, routes: { 'GET /api/setup/checklist': { body } } },
    );

  it('asks for the required steps left until they are done, and hides for the session when dismissed', async () => {
    const ui = userEvent.setup();
    renderBanner(checklist());
    expect(await screen.findByText(/2 required steps left/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the setup checklist' })).toHaveAttribute('href', '/admin');
    await ui.click(screen.getByRole('button', { name: 'Hide until next sign-in' }));
    expect(screen.queryByText(/required steps left/)).not.toBeInTheDocument();
    expect(sessionStorage.getItem('avatar-studio.setup-banner-dismissed')).toBe('1');
  });

  it('stays hidden once every required step is done', async () => {
    const { fetch } = renderBanner(checklist({ ai: { state: 'done' }, storage: { state: 'done' } }));
    await waitFor(() => expect(fetch.callsTo('GET /api/setup/checklist')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/required steps left/)).not.toBeInTheDocument();
  });
});
