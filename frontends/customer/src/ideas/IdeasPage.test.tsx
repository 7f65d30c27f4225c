import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { fakeIo, renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import type { Idea } from './api';
import { IdeasPage } from './IdeasPage';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

let socket: ReturnType<typeof fakeIo>;
let clipboard: jest.Mock;
beforeEach(() => {
  socket = fakeIo();
  setRealtimeIo(socket.io);
  clipboard = jest.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: clipboard }, configurable: true });
});
afterEach(() => {
  setRealtimeIo(null);
  notifications.clean();
});

const GENERATION = '3f0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f60';
const tags: Idea = {
  idea_id: 4,
  kind: 'hashtags',
  input: { text: 'Morning coffee', platform: 'instagram', count: 3 },
  items: ['#coffee', '#morning', '#ritual'],
  content: '#coffee\n#morning\n#ritual',
  createdAt: '2025-01-03T10:00:00.000Z',
};
const page = (ideas: Idea[]) => ({ body: { ideas, total: ideas.length, page: 1, limit: 10 } });

function renderIdeas(kind: 'topics' | 'hashtags', routes: MockRoutes = {}) {
  return renderWithProviders(
    <SignedIn>
      <IdeasPage kind={kind} />
    </SignedIn>,
    { user: testUser(), route: `/${kind}`, routes },
  );
}

describe('Topic and hashtag generators', () => {
  it("shows 'No history available' and refuses an empty subject", async () => {
    const { fetch } = renderIdeas('topics', { 'GET /api/topics': page([]) });
    expect(await screen.findByText('No history available')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText("The value can't be empty")).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/topics/generate')).toHaveLength(0);
  });

  it('generates topics, streams them in, then shows the saved ideas', async () => {
    let saved: Idea[] = [];
    const { fetch } = renderIdeas('topics', {
      'GET /api/topics': () => page(saved),
      'POST /api/topics/generate': { status: 202, body: { generation_id: GENERATION } },
    });
    await screen.findByText('No history available');
    await userEvent.type(screen.getByRole('textbox', { name: /Subject/ }), 'Coffee');
    await userEvent.type(screen.getByRole('textbox', { name: 'Audience (optional)' }), 'Students');
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/topics/generate')[0]?.body).toEqual({
        subject: 'Coffee',
        audience: 'Students',
        count: 10,
        language: 'en',
      }),
    );
    const deliver = (content: string, offset: number, done = false, idea_id: number | null = null) =>
      act(() =>
        socket.deliver('topics_output', {
          generation_id: GENERATION,
          kind: 'topics',
          content,
          offset,
          done,
          idea_id,
        }),
      );
    deliver('Cold brew', 0);
    expect(await screen.findByText('Cold brew')).toBeInTheDocument();
    saved = [
      {
        idea_id: 9,
        kind: 'topics',
        input: { subject: 'Coffee', audience: 'Students', count: 10, language: 'en' },
        items: ['Cold brew', 'Latte art'],
        content: 'Cold brew\nLatte art',
        createdAt: '2025-01-03T10:00:00.000Z',
      },
    ];
    deliver('Cold brew\nLatte art', 0, true, 9);
    const result = await screen.findByRole('region', { name: 'Result' });
    expect(await within(result).findByText('Latte art')).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'History' });
    expect(await within(history).findByRole('article', { name: 'Coffee (Students)' })).toBeInTheDocument();
  });

  it('copies one hashtag or all of them, and deletes a history entry', async () => {
    const { fetch } = renderIdeas('hashtags', {
      'GET /api/hashtags': page([tags]),
      'DELETE /api/hashtags/4': { status: 204 },
    });
    const entry = await screen.findByRole('article', { name: 'Morning coffee (instagram)' });
    await userEvent.click(within(entry).getByRole('button', { name: 'Copy #morning' }));
    expect(clipboard).toHaveBeenLastCalledWith('#morning');
    await userEvent.click(within(entry).getByRole('button', { name: 'Copy all' }));
    expect(clipboard).toHaveBeenLastCalledWith('#coffee #morning #ritual');
    expect(await screen.findAllByText('Copied to the clipboard.')).not.toHaveLength(0);
    await userEvent.click(within(entry).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/hashtags/4')).toHaveLength(1));
  });

  it('sends the post, platform and count for hashtags', async () => {
    const { fetch } = renderIdeas('hashtags', {
      'GET /api/hashtags': page([]),
      'POST /api/hashtags/generate': { status: 202, body: { generation_id: GENERATION } },
    });
    await screen.findByText('No history available');
    await userEvent.type(screen.getByRole('textbox', { name: /Your post/ }), 'Morning coffee');
    await userEvent.click(screen.getByRole('textbox', { name: 'Platform' }));
    await userEvent.click(await screen.findByRole('option', { name: 'LinkedIn' }));
    const count = screen.getByRole('textbox', { name: 'How many' });
    await userEvent.clear(count);
    await userEvent.type(count, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/hashtags/generate')[0]?.body).toEqual({
        text: 'Morning coffee',
        platform: 'linkedin',
        count: 5,
      }),
    );
  });
});
