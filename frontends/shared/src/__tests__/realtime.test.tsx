import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import {
  connectRealtime,
  disconnectRealtime,
  sessionStore,
  setRealtimeIo,
  useRealtimeEvent,
  type RealtimeIo,
} from '@avatar-studio/shared';

type Listener = (payload: unknown) => void;

interface FakeSocket {
  connected: boolean;
  on: jest.Mock<FakeSocket, [string, Listener]>;
  off: jest.Mock<FakeSocket, [string, Listener]>;
  connect: jest.Mock<FakeSocket, []>;
  disconnect: jest.Mock<FakeSocket, []>;
  deliver(event: string, payload: unknown): void;
  listenerCount(event: string): number;
}

/** A fake Socket.IO client: records options and listeners, and lets the test deliver events. */
function fakeIo() {
  const listeners = new Map<string, Set<Listener>>();
  const socket: FakeSocket = {
    connected: false,
    on: jest.fn((event: string, fn: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(fn);
      return socket;
    }),
    off: jest.fn((event: string, fn: Listener) => {
      listeners.get(event)?.delete(fn);
      return socket;
    }),
    connect: jest.fn(() => socket),
    disconnect: jest.fn(() => socket),
    deliver(event: string, payload: unknown) {
      for (const fn of listeners.get(event) ?? []) fn(payload);
    },
    listenerCount: (event: string) => listeners.get(event)?.size ?? 0,
  };
  const factory = jest.fn(() => socket);
  return { socket, factory, io: factory as unknown as RealtimeIo };
}

function authToken(options: unknown): string | null {
  let token: string | null = null;
  (options as { auth: (cb: (data: { token: string | null }) => void) => void }).auth((data) => {
    token = data.token;
  });
  return token;
}

function Chunks() {
  const [text, setText] = useState('');
  useRealtimeEvent('message_stream', (payload) => setText((t) => t + payload.content));
  return <p data-testid="text">{text}</p>;
}

describe('real-time socket', () => {
  afterEach(() => {
    setRealtimeIo(null);
    localStorage.clear();
  });

  it('does not connect without a session', () => {
    const fake = fakeIo();
    setRealtimeIo(fake.io);
    expect(connectRealtime()).toBeNull();
    expect(fake.factory).not.toHaveBeenCalled();
  });

  it('connects once with the access token and reconnects with a fresh one after a refresh', async () => {
    const fake = fakeIo();
    setRealtimeIo(fake.io);
    sessionStore.setTokens({ access_token: 'first', refresh_token: 'r1' });
    expect(await connectRealtime()).toBe(fake.socket);
    expect(await connectRealtime()).toBe(fake.socket);
    expect(fake.factory).toHaveBeenCalledTimes(1);
    const options = fake.factory.mock.calls[0] as unknown[];
    expect(options[0]).toMatchObject({ path: '/socket.io' });
    expect(authToken(options[0])).toBe('first');

    sessionStore.setTokens({ access_token: 'second', refresh_token: 'r2' });
    expect(fake.socket.connect).toHaveBeenCalledTimes(1);
    expect(authToken(options[0])).toBe('second');

    sessionStore.clearAll();
    expect(fake.socket.disconnect).toHaveBeenCalled();
    disconnectRealtime();
  });

  it('delivers events to a component while mounted', () => {
    const fake = fakeIo();
    setRealtimeIo(fake.io);
    sessionStore.setTokens({ access_token: 'token', refresh_token: 'r' });
    const view = render(<Chunks />);
    act(() => {
      fake.socket.deliver('message_stream', { conversation_id: 1, message_id: 2, offset: 0, content: 'Hel' });
      fake.socket.deliver('message_stream', { conversation_id: 1, message_id: 2, offset: 3, content: 'lo' });
    });
    expect(screen.getByTestId('text')).toHaveTextContent('Hello');
    view.unmount();
    expect(fake.socket.listenerCount('message_stream')).toBe(0);
  });
});
