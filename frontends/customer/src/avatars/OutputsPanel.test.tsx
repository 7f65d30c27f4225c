import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn, fakeIo } from '../conversations/testkit';
import { en, es } from '../i18n';
import { OutputsPanel } from './OutputsPanel';
import { avatar, output, outputPage, training, trainingPage } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

let socket: ReturnType<typeof fakeIo>;
beforeEach(() => {
  socket = fakeIo();
  setRealtimeIo(socket.io);
});
afterEach(() => {
  setRealtimeIo(null);
  notifications.clean();
});

function renderPanel(routes: MockRoutes) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/avatars/:avatar_id" element={<OutputsPanel avatar={avatar()} />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user: testUser(),
      route: '/avatars/5',
      routes: { 'GET /api/trainings': trainingPage([]), ...routes },
    },
  );
}

describe('Outputs panel', () => {
  it('generates with a training’s style, streaming the text in, then shows the saved output', async () => {
    const writing = output({ output_id: 32, status: 'generating', content: null, training_id: 21 });
    let stage: 'none' | 'writing' | 'done' = 'none';
    const { fetch } = renderPanel({
      'GET /api/trainings': trainingPage([training({ state: 'ready', style_guide: 'Be brief.' })]),
      'GET /api/outputs/avatar/5': () =>
        outputPage(
          stage === 'none'
            ? []
            : [
                stage === 'writing'
                  ? writing
                  : { ...writing, status: 'complete', content: 'Ahoy crew!', updatedAt: 'x' },
              ],
        ),
      'POST /api/outputs/generate': () => {
        stage = 'writing';
        return { status: 201, body: { output: writing } };
      },
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('No outputs yet.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText("The input can't be empty")).toBeInTheDocument();
    await ui.type(
      screen.getByRole('textbox', { name: 'What should the avatar write?' }),
      'A post about boats',
    );
    await ui.click(screen.getByRole('textbox', { name: 'Write with the style of' }));
    await ui.click(await screen.findByRole('option', { name: 'Newsletter posts' }));
    await ui.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/outputs/generate')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/outputs/generate')[0].body).toEqual({
      avatar_id: 5,
      prompt: 'A post about boats',
      training_id: 21,
    });
    expect(await screen.findByText('Writing…')).toBeInTheDocument();
    const piece = {
      output_id: 32,
      avatar_id: 5,
      training_id: 21,
      done: false,
      status: 'generating' as const,
    };
    act(() => socket.deliver('output', { ...piece, content: 'Ahoy ', offset: 0 }));
    act(() => socket.deliver('output', { ...piece, content: 'Ahoy ', offset: 0 }));
    act(() => socket.deliver('output', { ...piece, content: 'crew!', offset: 5 }));
    expect(await screen.findByText('Ahoy crew!')).toBeInTheDocument();
    stage = 'done';
    act(() =>
      socket.deliver('output', {
        ...piece,
        content: 'Ahoy crew!',
        offset: 0,
        done: true,
        status: 'complete',
      }),
    );
    expect(await screen.findByRole('button', { name: 'Good' })).toBeInTheDocument();
  });

  it('rates an output with a note, edits it and deletes it', async () => {
    const { fetch } = renderPanel({
      'GET /api/outputs/avatar/5': outputPage([output()]),
      'POST /api/outputs/rate': { body: { output: output({ rating: 'down', rating_note: 'Too salty' }) } },
      'PUT /api/outputs': { body: { output: output({ content: 'Ahoy!' }) } },
      'DELETE /api/outputs/31': { status: 204 },
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('Ahoy crew, the boats are in.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Not good' }));
    expect(screen.getByRole('button', { name: 'Not good' })).toHaveAttribute('aria-pressed', 'true');
    await ui.type(screen.getByRole('textbox', { name: 'Note for the training (optional)' }), 'Too salty');
    await ui.click(screen.getByRole('button', { name: 'Rate' }));
    expect(await screen.findByText('Rated.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/outputs/rate')[0].body).toEqual({
      output_id: 31,
      rating: 'down',
      note: 'Too salty',
    });
    await ui.click(screen.getByRole('button', { name: 'Edit' }));
    const text = screen.getByRole('textbox', { name: 'Text' });
    await ui.clear(text);
    await ui.type(text, 'Ahoy!');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/outputs')[0].body).toEqual({ output_id: 31, content: 'Ahoy!' });
    await ui.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/outputs/31')).toHaveLength(1);
  });

  it('searches outputs by free text', async () => {
    const { fetch } = renderPanel({ 'GET /api/outputs/avatar/5': outputPage([output()]) });
    const ui = userEvent.setup();
    await screen.findByText('Ahoy crew, the boats are in.');
    await ui.type(screen.getByRole('textbox', { name: 'Search outputs' }), 'boats');
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/outputs/avatar/5').some((c) => c.query.get('query') === 'boats')).toBe(
        true,
      ),
    );
  });

  it('goes to /sorry when generating answers 412', async () => {
    renderPanel({
      'GET /api/outputs/avatar/5': outputPage([]),
      'POST /api/outputs/generate': {
        status: 412,
        body: { statusCode: 412, message: 'No words left.', code: 'no_access' },
      },
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByRole('textbox', { name: 'What should the avatar write?' }), 'Hi');
    await ui.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });
});
