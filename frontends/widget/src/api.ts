import type { WidgetStreamEvents } from '@avatar-studio/contracts/widget';
import { readEvents } from './sse';

/** A refusal the server explained: its sentence is for the visitor. */
export class WidgetRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface VisitorSession {
  token: string;
  conversation_id: number;
  widget: { name: string; accent_color: string; image_url: string | null; avatar_name: string };
}

export interface VisitorMessage {
  message_id: number;
  role: 'user' | 'assistant';
  content: string;
}

export interface AnswerHandlers {
  delta(text: string): void;
  done(content: string): void;
}

async function refusal(res: Response): Promise<WidgetRefusal> {
  const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
  return new WidgetRefusal(res.status, body.code ?? 'error', body.message ?? '');
}

/**
 * The visitor routes of one widget. The token is kept in localStorage (per widget key), so a reload of the
 * host page goes on with the same conversation; it is sent only to these routes, never as a cookie.
 */
export class VisitorApi {
  private token: string | null;
  private readonly storageKey: string;

  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {
    this.storageKey = `avatar-studio-widget:${key}`;
    this.token = readStored(this.storageKey);
  }

  private url(path: string): string {
    return `${this.base}/api/widget/${this.key}/${path}`;
  }

  async start(): Promise<VisitorSession> {
    const res = await fetch(this.url('sessions'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(this.token ? { resume_token: this.token } : {}),
      credentials: 'omit',
    });
    if (!res.ok) throw await refusal(res);
    const session = (await res.json()) as VisitorSession;
    this.token = session.token;
    writeStored(this.storageKey, session.token);
    return session;
  }

  /** Runs `call` with the token; once more with a new session when the token has expired. */
  private async authorized(call: (token: string) => Promise<Response>): Promise<Response> {
    if (!this.token) await this.start();
    let res = await call(this.token!);
    if (res.status === 401) {
      await this.start();
      res = await call(this.token!);
    }
    if (!res.ok) throw await refusal(res);
    return res;
  }

  async history(): Promise<VisitorMessage[]> {
    const res = await this.authorized((token) =>
      fetch(this.url('messages'), { headers: { Authorization: `Bearer ${token}` }, credentials: 'omit' }),
    );
    return ((await res.json()) as { messages: VisitorMessage[] }).messages;
  }

  /** Sends the visitor's message and hands the answer's pieces to `on` as they arrive. */
  async ask(text: string, on: AnswerHandlers, signal?: AbortSignal): Promise<void> {
    const res = await this.authorized((token) =>
      fetch(this.url('messages'), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ text }),
        credentials: 'omit',
        signal,
      }),
    );
    let received = 0;
    for await (const { event, data } of readEvents(res.body!)) {
      if (event === 'delta') {
        const piece = JSON.parse(data) as WidgetStreamEvents['delta'];
        // Offsets say where each piece starts: overlap is dropped, so nothing shows twice.
        if (piece.offset + piece.content.length > received) {
          on.delta(piece.content.slice(Math.max(0, received - piece.offset)));
          received = piece.offset + piece.content.length;
        }
      } else if (event === 'done') {
        on.done((JSON.parse(data) as WidgetStreamEvents['done']).content);
        return;
      } else if (event === 'error') {
        const err = JSON.parse(data) as WidgetStreamEvents['error'];
        throw new WidgetRefusal(500, err.code, err.message);
      }
    }
    throw new WidgetRefusal(502, 'stream_ended', '');
  }
}

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode, blocked): the conversation lasts as long as the page.
  }
}
