import { readEvents } from './sse';
import { textOn } from './snippet';

const KEY = 'wk_0123456789abcdef01234567';

function sse(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const session = {
  token: 'wv.token-1',
  expires_in: 7200,
  visitor_id: 'v',
  conversation_id: 7,
  widget: { name: 'Shop chat', accent_color: 'ff0000', image_url: null, avatar_name: 'Shoe helper' },
};

async function flush(times = 10) {
  for (let i = 0; i < times; i++) await new Promise((r) => setTimeout(r, 0));
}

function embed(attributes: Record<string, string>) {
  const div = document.createElement('div');
  div.id = 'avatar-studio-widget';
  for (const [name, value] of Object.entries(attributes)) div.setAttribute(name, value);
  document.body.append(div);
  return div;
}

async function load() {
  jest.isolateModules(() => {
    require('./loader');
  });
  await flush();
}

describe('the event stream reader', () => {
  it('reads events split anywhere, skips keep-alives and keeps multi-line data', async () => {
    const events = [];
    for await (const e of readEvents(
      sse([
        'event: delta\ndata: {"a"',
        ':1}\n\n: keep-alive\n\n',
        'event: done\r\ndata: x\r\ndata: y\r\n\r\n',
      ]),
    ))
      events.push(e);
    expect(events).toEqual([
      { event: 'delta', data: '{"a":1}' },
      { event: 'done', data: 'x\ny' },
    ]);
  });
});

describe('the chat widget', () => {
  let fetchMock: jest.Mock;

  beforeEach(() => {
    document.body.innerHTML = '';
    document.documentElement.lang = '';
    window.localStorage.clear();
    fetchMock = jest.fn();
    global.fetch = fetchMock as unknown as typeof fetch;
  });

  it('draws the button in a shadow root with the snippet’s colour and name, and nothing without a key', async () => {
    const div = embed({
      'data-widget-key': KEY,
      'data-accent-color': '00aa11',
      'data-widget-name': 'Shop chat',
    });
    const ignored = embed({ 'data-widget-name': 'No key' });
    ignored.className = 'avatar-studio-widget';
    ignored.removeAttribute('id');
    await load();
    const button = div.shadowRoot!.querySelector('button')!;
    expect(button.getAttribute('aria-label')).toBe('Open chat: Shop chat');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect((div.shadowRoot!.querySelector('.frame') as HTMLElement).style.getPropertyValue('--accent')).toBe(
      '#00aa11',
    );
    expect(ignored.shadowRoot).toBeNull();
    // Nothing is asked of the server before the visitor opens the chat.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('opens a session, shows the conversation, streams an answer and remembers the visitor', async () => {
    document.documentElement.lang = 'en';
    const div = embed({ 'data-widget-key': KEY, 'data-widget-name': 'Shop chat' });
    fetchMock
      .mockResolvedValueOnce(json(session, 201))
      .mockResolvedValueOnce(
        json({ messages: [{ message_id: 1, role: 'user', content: 'Earlier question' }] }),
      )
      .mockResolvedValueOnce(
        new Response(
          sse([
            'event: delta\ndata: {"content":"Hand","offset":0}\n\n',
            'event: delta\ndata: {"content":"made in Spain.","offset":4}\n\n',
            'event: done\ndata: {"message_id":3,"content":"Handmade in Spain.","finish_reason":"stop"}\n\n',
          ]),
          { headers: { 'Content-Type': 'text/event-stream' } },
        ),
      );
    await load();
    const root = div.shadowRoot!;
    root.querySelector<HTMLButtonElement>('.launcher')!.click();
    await flush();
    expect(root.querySelector('[role="dialog"]')!.hasAttribute('hidden')).toBe(false);
    expect(root.querySelector('.launcher')!.getAttribute('aria-expanded')).toBe('true');
    expect(root.activeElement).toBe(root.querySelector('textarea'));
    expect(String(fetchMock.mock.calls[0][0])).toBe(`http://localhost/api/widget/${KEY}/sessions`);
    expect(window.localStorage.getItem(`avatar-studio-widget:${KEY}`)).toBe('wv.token-1');
    expect(root.querySelector('.log')!.textContent).toContain('Earlier question');

    const input = root.querySelector('textarea')!;
    input.value = 'Where are they made?';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flush(20);
    const [url, init] = fetchMock.mock.calls[2] as [string, RequestInit];
    expect(url).toBe(`http://localhost/api/widget/${KEY}/messages`);
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer wv.token-1');
    expect(init.credentials).toBe('omit');
    const bubbles = [...root.querySelectorAll('.msg')].map((m) => m.textContent);
    expect(bubbles).toEqual([
      'You: Earlier question',
      'You: Where are they made?',
      'Shoe helper: Handmade in Spain.',
    ]);

    // Escape closes and gives the focus back to the button.
    root
      .querySelector('[role="dialog"]')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(root.querySelector('[role="dialog"]')!.hasAttribute('hidden')).toBe(true);
    expect(root.activeElement).toBe(root.querySelector('.launcher'));
  });

  it('speaks Spanish on a Spanish page and shows the server’s refusal in it', async () => {
    document.documentElement.lang = 'es-MX';
    window.localStorage.setItem(`avatar-studio-widget:${KEY}`, 'wv.old');
    const div = embed({ 'data-widget-key': KEY, 'data-widget-name': 'Tienda' });
    fetchMock.mockResolvedValueOnce(
      json({ code: 'widget_disabled', message: 'This chat is not available right now.' }, 403),
    );
    await load();
    const root = div.shadowRoot!;
    expect(root.querySelector('.launcher')!.getAttribute('aria-label')).toBe('Abrir chat: Tienda');
    root.querySelector<HTMLButtonElement>('.launcher')!.click();
    await flush();
    // A returning visitor's token is offered to go on with their conversation.
    expect(JSON.parse(String((fetchMock.mock.calls[0][1] as RequestInit).body))).toEqual({
      resume_token: 'wv.old',
    });
    expect(root.querySelector('[role="alert"]')!.textContent).toBe(
      'Este chat no está disponible en este momento.',
    );
    expect(root.querySelector('textarea')!.getAttribute('placeholder')).toBe('Escribe tu mensaje');
  });

  it('picks the text colour with the higher contrast on the accent colour', () => {
    // White on pure red is 4.0:1 (below the 4.5:1 text needs); near-black is 4.7:1.
    expect(textOn('#ff0000')).toBe('#111111');
    expect(textOn('#ffff00')).toBe('#111111');
    expect(textOn('#1f3a93')).toBe('#ffffff');
  });
});

describe('the generator’s live preview', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
    global.fetch = jest.fn() as unknown as typeof fetch;
  });

  it('draws the open panel with the form’s name and colour, follows changes, and opens no session', () => {
    const { mountPreview } = jest.requireActual<typeof import('./preview')>('./preview');
    const host = document.createElement('div');
    const name = document.createElement('input');
    document.body.append(name, host);
    name.focus();
    const preview = mountPreview(host, { name: 'Shop chat', accent: '00aa11', image: null, language: 'en' });
    const root = () => (host.firstElementChild as HTMLElement).shadowRoot!;
    expect(root().querySelector('.launcher')!.getAttribute('aria-label')).toBe('Open chat: Shop chat');
    expect((root().querySelector('.frame') as HTMLElement).style.getPropertyValue('--accent')).toBe(
      '#00aa11',
    );
    const panel = root().querySelector('.panel') as HTMLElement;
    expect(panel.hidden).toBe(false);
    expect(root().querySelector('.notice')!.textContent).toMatch(/^Preview:/);
    expect((root().querySelector('textarea') as HTMLTextAreaElement).disabled).toBe(true);
    // The form keeps the focus while the preview draws.
    expect(document.activeElement).toBe(name);

    preview.update({ name: 'Tienda', accent: '#123456', image: 'javascript:alert(1)', language: 'es' });
    expect(root().querySelector('.launcher')!.getAttribute('aria-label')).toBe('Abrir chat: Tienda');
    expect((root().querySelector('.frame') as HTMLElement).style.getPropertyValue('--accent')).toBe(
      '#123456',
    );
    expect(root().querySelector('.launcher img')).toBeNull();
    expect(host.children).toHaveLength(1);
    expect(global.fetch).not.toHaveBeenCalled();
    preview.unmount();
    expect(host.children).toHaveLength(0);
  });

  it('is built under the names the app loads it by', () => {
    const { WIDGET_PREVIEW_REMOTE } = jest.requireActual<typeof import('@avatar-studio/contracts/widget')>(
      '@avatar-studio/contracts/widget',
    );
    const { PREVIEW_REMOTE } = require('../webpack.config.js');
    expect(WIDGET_PREVIEW_REMOTE).toEqual({
      entry: `/widget/${PREVIEW_REMOTE.filename}`,
      global: PREVIEW_REMOTE.name,
      module: PREVIEW_REMOTE.module,
    });
  });
});
