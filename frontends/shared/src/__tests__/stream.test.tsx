import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import {
  ApiError,
  applyChunk,
  setRealtimeIo,
  useGeneratingMutation,
  useMessageStream,
  useSession,
} from '@avatar-studio/shared';
import { fakeIo, renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { notifications } from '@mantine/notifications';
import { useLocation } from 'react-router-dom';

describe('applyChunk', () => {
  it('appends a chunk that starts at the end of the text', () => {
    expect(applyChunk('Hel', 3, 'lo')).toEqual({ text: 'Hello', gap: false });
  });
  it('skips the part of a chunk the text already has', () => {
    expect(applyChunk('Hello', 2, 'llo world')).toEqual({ text: 'Hello world', gap: false });
    expect(applyChunk('Hello', 0, 'Hel')).toEqual({ text: 'Hello', gap: false });
  });
  it('leaves the text as it is on a gap', () => {
    expect(applyChunk('Hel', 5, 'world')).toEqual({ text: 'Hel', gap: true });
  });
});

function Answer({ conversationId }: { conversationId: number }) {
  const { streams } = useMessageStream(conversationId);
  const stream = streams.get(4);
  return (
    <p data-testid="answer">{stream ? `${stream.status}:${stream.text}:${stream.reason ?? ''}` : 'none'}</p>
  );
}

describe('useMessageStream', () => {
  let socket: ReturnType<typeof fakeIo>;
  beforeEach(() => {
    socket = fakeIo();
    setRealtimeIo(socket.io);
  });
  afterEach(() => setRealtimeIo(null));

  it('follows one conversation: chunks by offset, then the interruption with its text and reason', async () => {
    renderWithProviders(<Answer conversationId={7} />, { user: testUser() });
    await screen.findByText('none');
    act(() => {
      socket.deliver('message_stream', { conversation_id: 8, message_id: 4, offset: 0, content: 'Other' });
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Cats ' });
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Cats ' });
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 5, content: 'purr' });
    });
    expect(screen.getByTestId('answer')).toHaveTextContent('streaming:Cats purr:');
    act(() =>
      socket.deliver('message_interrupted', {
        conversation_id: 7,
        message_id: 4,
        content: 'Cats purr',
        reason: 'Stopped.',
      }),
    );
    expect(screen.getByTestId('answer')).toHaveTextContent('interrupted:Cats purr:Stopped.');
    // A new generation of the same answer (a retry) starts from the beginning.
    act(() =>
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Dogs' }),
    );
    expect(screen.getByTestId('answer')).toHaveTextContent('streaming:Dogs:');
  });

  it('asks once per position for a resume after a gap, and again after a reconnect', async () => {
    renderWithProviders(<Answer conversationId={7} />, { user: testUser() });
    await screen.findByText('none');
    act(() => {
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Cats' });
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 9, content: 'x' });
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 10, content: 'y' });
    });
    expect(socket.emittedOf('stream_resume')).toEqual([{ message_id: 4, offset: 4 }]);
    act(() => socket.reconnect());
    expect(socket.emittedOf('stream_resume')).toEqual([
      { message_id: 4, offset: 4 },
      { message_id: 4, offset: 4 },
    ]);
    act(() =>
      socket.deliver('message_stream_end', {
        conversation_id: 7,
        message: { message_id: 4, conversation_id: 7, content: 'Cats purr.', status: 'complete' },
      }),
    );
    expect(screen.getByTestId('answer')).toHaveTextContent('complete:Cats purr.:');
    act(() => socket.reconnect());
    expect(socket.emittedOf('stream_resume')).toHaveLength(2);
  });
});

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

/** Mounts once the session is settled, like a screen under the shell. */
function Generate(props: { noAccess?: 'sorry' | 'premium' }) {
  return useSession().status === 'signedIn' ? <GenerateButtons {...props} /> : null;
}

function GenerateButtons({ noAccess }: { noAccess?: 'sorry' | 'premium' }) {
  const mutation = useGeneratingMutation({
    mutationFn: async (status: number) => {
      throw new ApiError(status, { message: `Server says ${status}.`, code: 'x' });
    },
    noAccess,
  });
  return (
    <>
      <button onClick={() => mutation.mutate(412)}>412</button>
      <button onClick={() => mutation.mutate(429)}>429</button>
      <Where />
    </>
  );
}

describe('useGeneratingMutation', () => {
  afterEach(() => notifications.clean());

  it('goes to /sorry on a 412', async () => {
    renderWithProviders(
      <Routes>
        <Route path="*" element={<Generate />} />
      </Routes>,
      { user: testUser(), route: '/chat' },
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: '412' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it('shows the premium notice on a 412 where the screen asks for it, and the server message otherwise', async () => {
    renderWithProviders(
      <Routes>
        <Route path="*" element={<Generate noAccess="premium" />} />
      </Routes>,
      { user: testUser(), route: '/avatars' },
    );
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: '412' }));
    expect(
      await screen.findByText('This is a premium feature. Please, upgrade your account.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/avatars');
    await ui.click(screen.getByRole('button', { name: '429' }));
    expect(await screen.findByText('Server says 429.')).toBeInTheDocument();
  });
});
