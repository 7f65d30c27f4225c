import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { fakeIo, renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { avatar, page } from '../avatars/testkit';
import { SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import { SuperFetchPage } from './SuperFetchPage';

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

const ASSISTANT = 'asst_0123456789abcdef01234567';
const REQUEST = '3f0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f60';
const GENERATIONS = ['5a0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f61', '6b0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f62'];
const assistants = page([avatar({ name: 'Super Fetch', super_fetch_assistant: true })]);
const started = { status: 202, body: { request_id: REQUEST, generation_ids: GENERATIONS } };

function renderPage(routes: MockRoutes = {}) {
  return renderWithProviders(
    <SignedIn>
      <SuperFetchPage />
    </SignedIn>,
    {
      user: testUser(),
      route: '/super-fetch',
      routes: {
        'GET /api/avatars/super-fetch': assistants,
        [`GET /api/super_fetch/messages/${ASSISTANT}`]: { body: { messages: [] } },
        ...routes,
      },
    },
  );
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });

async function fillRequired() {
  for (const [name, value] of [
    ['Task', 'Write a post'],
    ['Topic', 'Cold brew'],
    ['Target Audience', 'Students'],
    ['Persona', 'A barista'],
    ['Tone', 'Warm'],
    ['Formula', 'AIDA'],
  ])
    await userEvent.type(field(name), value);
}

const deliver = (index: number, content: string, offset: number, done = false) =>
  act(() =>
    socket.deliver('super_fetch_outputs', {
      request_id: REQUEST,
      generation_id: GENERATIONS[index],
      index,
      assistant_id: ASSISTANT,
      content,
      offset,
      done,
      message_id: done ? 10 + index : null,
    }),
  );

describe('Super Fetch', () => {
  it('shows the nine inputs in order, marks empty required ones invalid and blocks generating', async () => {
    const { fetch } = renderPage();
    await screen.findByRole('textbox', { name: /^Task/ });
    const form = screen.getByRole('form', { name: 'Super Fetch' });
    const labels = ['Task', 'Topic', 'Target Audience', 'Persona', 'Tone', 'Formula', 'Examples'];
    const boxes = within(form).getAllByRole('textbox');
    expect(boxes.slice(0, 9)).toEqual(
      [...labels, 'Call to Action', 'Manual Prompt'].map((name) => field(name)),
    );
    expect(boxes[9]).toBe(screen.getByRole('textbox', { name: 'Outputs' }));
    await userEvent.type(field('Task'), 'Write a post');
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    // Five required inputs are still empty: each says so, and nothing is sent.
    expect(await screen.findAllByText("The value can't be empty")).toHaveLength(5);
    expect(fetch.callsTo('POST /api/super_fetch/v2')).toHaveLength(0);
    // Editing re-evaluates: filling Topic clears its error.
    await userEvent.type(field('Topic'), 'Cold brew');
    await waitFor(() => expect(screen.getAllByText("The value can't be empty")).toHaveLength(4));
    // Clearing a filled one marks it again.
    await userEvent.clear(field('Task'));
    await waitFor(() => expect(screen.getAllByText("The value can't be empty")).toHaveLength(5));
  });

  it('keeps an input as a [field]: it is then not required, and sent as editable', async () => {
    const { fetch } = renderPage({ 'POST /api/super_fetch/v2': started });
    await screen.findByRole('textbox', { name: /^Task/ });
    await fillRequired();
    await userEvent.clear(field('Tone'));
    await userEvent.click(screen.getByRole('switch', { name: 'Keep Tone as a [field]' }));
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/super_fetch/v2')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/super_fetch/v2')[0].body).toMatchObject({ editable: ['tone'] });
  });

  it('generates 2 outputs that stream in, takes feedback (not empty) and regenerates, then goes back to edit', async () => {
    const { fetch } = renderPage({ 'POST /api/super_fetch/v2': started });
    await screen.findByRole('textbox', { name: /^Task/ });
    await fillRequired();
    const count = screen.getByRole('textbox', { name: 'Outputs' });
    expect(count).toHaveValue('1');
    await userEvent.clear(count);
    await userEvent.type(count, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/super_fetch/v2')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/super_fetch/v2')[0].body).toEqual({
      assistant_id: ASSISTANT,
      values: {
        task: 'Write a post',
        topic: 'Cold brew',
        target: 'Students',
        person: 'A barista',
        tone: 'Warm',
        format: 'AIDA',
        examples: '',
        cta: '',
        prompt: '',
      },
      editable: [],
      outputs: 2,
    });
    deliver(0, 'First ', 0);
    deliver(1, 'Second', 0);
    deliver(0, 'draft', 6);
    const first = await screen.findByRole('article', { name: 'Output 1' });
    expect(await within(first).findByText('First draft')).toBeInTheDocument();
    deliver(0, 'First draft', 0, true);
    deliver(1, 'Second draft', 0, true);
    const second = screen.getByRole('article', { name: 'Output 2' });
    expect(await within(second).findByText('Second draft')).toBeInTheDocument();
    await userEvent.click(within(second).getByRole('button', { name: 'Copy' }));
    expect(clipboard).toHaveBeenLastCalledWith('Second draft');

    // The feedback form: the retry text must not be empty.
    const feedback = screen.getByRole('form', { name: 'How was it?' });
    await userEvent.click(within(feedback).getByRole('button', { name: 'I don’t like it' }));
    expect(within(feedback).getByRole('button', { name: 'I don’t like it' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(within(feedback).getByRole('button', { name: 'Regenerate' }));
    expect(await within(feedback).findByText("The value can't be empty")).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/super_fetch/v2')).toHaveLength(1);
    await userEvent.type(within(feedback).getByRole('textbox', { name: /What should change/ }), 'Shorter');
    await userEvent.click(within(feedback).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/super_fetch/v2')).toHaveLength(2));
    expect(fetch.callsTo('POST /api/super_fetch/v2')[1].body).toMatchObject({
      outputs: 2,
      feedback: { liked: false, text: 'Shorter' },
    });

    await userEvent.click(screen.getByRole('button', { name: 'Back to Edit' }));
    expect(field('Topic')).toHaveValue('Cold brew');
  });

  it('Clean empties the inputs; the outputs count cannot go below 0, and 0 blocks generating', async () => {
    const { fetch } = renderPage({ 'POST /api/super_fetch/v2': started });
    await screen.findByRole('textbox', { name: /^Task/ });
    await fillRequired();
    const count = screen.getByRole('textbox', { name: 'Outputs' });
    await userEvent.clear(count);
    await userEvent.type(count, '-3');
    expect(count).toHaveValue('3');
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    expect(await screen.findByText('Choose at least one output.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(fetch.callsTo('POST /api/super_fetch/v2')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Clean' }));
    expect(field('Task')).toHaveValue('');
    expect(field('Formula')).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Outputs' })).toHaveValue('1');
  });

  it("toggles the history ('No history available' when empty) and resets it", async () => {
    let messages = [
      {
        message_id: 3,
        role: 'assistant',
        content: 'An earlier post',
        request_id: REQUEST,
        liked: null,
        createdAt: '2025-01-03T10:00:00.000Z',
        updatedAt: '2025-01-03T10:00:00.000Z',
      },
    ];
    const { fetch } = renderPage({
      [`GET /api/super_fetch/messages/${ASSISTANT}`]: () => ({ body: { messages } }),
      [`DELETE /api/super_fetch/messages/${ASSISTANT}`]: () => {
        messages = [];
        return { body: { message: 'Super Fetcch reset.' } };
      },
    });
    await screen.findByRole('textbox', { name: /^Task/ });
    expect(screen.getByText('Your outputs appear here.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'History' }));
    expect(await screen.findByText('An earlier post')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Super Fetcch reset.')).toBeInTheDocument();
    expect(await screen.findByText('No history available')).toBeInTheDocument();
    expect(fetch.callsTo(`DELETE /api/super_fetch/messages/${ASSISTANT}`)).toHaveLength(1);
  });

  it('offers to create a Super Fetch assistant when the user has none', async () => {
    const { fetch } = renderPage({
      'GET /api/avatars/super-fetch': page([]),
      'POST /api/avatars': { status: 201, body: { avatar: avatar({ super_fetch_assistant: true }) } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Create my Super Fetch assistant' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/avatars')[0]?.body).toEqual({
        name: 'Super Fetch',
        super_fetch_assistant: true,
      }),
    );
  });
});
