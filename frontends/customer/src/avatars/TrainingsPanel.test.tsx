import { notifications } from '@mantine/notifications';
import { registerTranslations, setLanguage, setRealtimeIo } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn, fakeIo } from '../conversations/testkit';
import { en, es } from '../i18n';
import { TrainingsPanel } from './TrainingsPanel';
import { avatar, training, trainingPage } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

let socket: ReturnType<typeof fakeIo>;
beforeEach(() => {
  socket = fakeIo();
  setRealtimeIo(socket.io);
});
afterEach(async () => {
  setRealtimeIo(null);
  notifications.clean();
  await setLanguage('en');
});

function renderPanel(routes: MockRoutes) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/avatars/:avatar_id" element={<TrainingsPanel avatar={avatar()} />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    { user: testUser(), route: '/avatars/5', routes },
  );
}

describe('Trainings panel', () => {
  it('lists the avatar’s trainings with their state; executes one, saying so and reloading the list', async () => {
    let executed = false;
    const { fetch } = renderPanel({
      'GET /api/trainings': () =>
        trainingPage([training(executed ? { state: 'queued', stage: 'reading', progress: 0 } : {})]),
      'POST /api/trainings/execute': () => {
        executed = true;
        return { body: { training: training({ state: 'queued' }) } };
      },
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('Newsletter posts')).toBeInTheDocument();
    expect(screen.getByText('Not run yet')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/trainings')[0].query.get('avatar_id')).toBe('5');
    // Refine needs a style guide first.
    expect(screen.getByRole('button', { name: 'Refine' })).toBeDisabled();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText('Executed.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/trainings/execute')[0].body).toEqual({ training_id: 21 });
    expect(await screen.findByText('Waiting to start')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/trainings').length).toBeGreaterThanOrEqual(2);
  });

  it('follows a run’s progress from the socket, then shows its style guide', async () => {
    let finished = false;
    renderPanel({
      'GET /api/trainings': () =>
        trainingPage([
          finished
            ? training({ state: 'ready', stage: 'done', progress: 100, style_guide: 'Write short posts.' })
            : training({ state: 'running', stage: 'reading', progress: 5 }),
        ]),
    });
    const bar = await screen.findByRole('progressbar', { name: 'Progress of Newsletter posts' });
    expect(bar).toHaveAttribute('aria-valuenow', '5');
    act(() =>
      socket.deliver('training_progress', {
        training_id: 21,
        avatar_id: 5,
        kind: 'execute',
        state: 'running',
        stage: 'style',
        progress: 50,
        error: null,
      }),
    );
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(screen.getByText('Learning the style')).toBeInTheDocument();
    finished = true;
    act(() =>
      socket.deliver('training_progress', {
        training_id: 21,
        avatar_id: 5,
        kind: 'execute',
        state: 'ready',
        stage: 'done',
        progress: 100,
        error: null,
      }),
    );
    expect(await screen.findByText('Write short posts.')).toBeInTheDocument();
    expect(screen.getByText('Ready')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows why a run failed', async () => {
    renderPanel({
      'GET /api/trainings': trainingPage([
        training({
          state: 'failed',
          error: 'The training took longer than 15 minutes and was stopped. Run it again.',
        }),
      ]),
    });
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(
      screen.getByText('The training took longer than 15 minutes and was stopped. Run it again.'),
    ).toBeInTheDocument();
  });

  it('shows the cost notice when the scope’s own AI key pays, in English and in Spanish', async () => {
    const { unmount } = renderPanel({ 'GET /api/trainings': trainingPage([], true) });
    expect(await screen.findByRole('note')).toHaveTextContent('between $20 and $60 USD');
    unmount();
    await setLanguage('es');
    renderPanel({ 'GET /api/trainings': trainingPage([], true) });
    expect(await screen.findByRole('note')).toHaveTextContent('entre $20 y $100 USD');
  });

  it('goes to /sorry when a run answers 412', async () => {
    renderPanel({
      'GET /api/trainings': trainingPage([training({ state: 'ready', style_guide: 'Be brief.' })]),
      'POST /api/trainings/refine': {
        status: 412,
        body: {
          statusCode: 412,
          message: 'This is a premium feature. Please, upgrade your account.',
          code: 'no_access',
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Refine' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it('syncs, refines and deletes with their messages', async () => {
    const { fetch } = renderPanel({
      'GET /api/trainings': trainingPage([training({ state: 'ready', style_guide: 'Be brief.' })]),
      'POST /api/trainings/sync': { body: { training: training({ state: 'queued' }) } },
      'POST /api/trainings/refine': {
        body: { training: training({ state: 'ready', style_guide: 'Briefer.' }) },
      },
      'DELETE /api/trainings/21': { status: 204 },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Sync' }));
    expect(await screen.findByText('Synced.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Refine' }));
    expect(await screen.findByText('Refined.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this training?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/trainings/21')).toHaveLength(1);
  });

  it('adds a training: the dataset is uploaded first, then the training is made with its file_id', async () => {
    const { fetch } = renderPanel({
      'GET /api/trainings': trainingPage([]),
      'POST /api/files': { status: 201, body: { file: { file_id: 77, name: 'posts.jsonl', src: '/x' } } },
      'POST /api/trainings': { status: 201, body: { training: training() } },
    });
    // The upload goes through XMLHttpRequest (for its progress): sent here through fetch for the mock.
    const real = window.XMLHttpRequest;
    class XhrThroughFetch {
      status = 0;
      responseText = '';
      upload = {};
      onload?: () => void;
      private method = 'GET';
      private url = '';
      open(method: string, url: string) {
        this.method = method;
        this.url = url;
      }
      setRequestHeader() {}
      getResponseHeader() {
        return 'application/json';
      }
      send(body: unknown) {
        void globalThis.fetch(this.url, { method: this.method, body: body as BodyInit }).then(async (res) => {
          this.status = res.status;
          this.responseText = await res.text();
          this.onload?.();
        });
      }
    }
    window.XMLHttpRequest = XhrThroughFetch as never;
    try {
      const ui = userEvent.setup();
      await screen.findByText('No trainings yet.');
      await ui.click(screen.getByRole('button', { name: 'Add training' }));
      expect(await screen.findByText('You must add a name to your training.')).toBeInTheDocument();
      expect(screen.getByText('Choose a dataset file.')).toBeInTheDocument();
      await ui.type(screen.getByRole('textbox', { name: 'Name' }), 'Posts');
      const input = document.querySelector('input[type="file"]') as HTMLInputElement;
      await ui.upload(input, new File(['{"a":1}'], 'posts.jsonl', { type: 'application/json' }));
      await ui.click(screen.getByRole('button', { name: 'Add training' }));
      await waitFor(() => expect(fetch.callsTo('POST /api/trainings')).toHaveLength(1));
      expect(fetch.callsTo('POST /api/trainings')[0].body).toEqual({
        name: 'Posts',
        avatar_id: 5,
        file_id: 77,
      });
    } finally {
      window.XMLHttpRequest = real;
    }
  });
});
