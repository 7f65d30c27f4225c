import { MAX_WIDGET_MESSAGE } from '@avatar-studio/contracts/widget';
import { VisitorApi, WidgetRefusal, type VisitorMessage } from './api';
import { translator, type Language, type Translator } from './i18n';
import type { SnippetSettings } from './snippet';

interface PanelOptions {
  frame: HTMLElement;
  button: HTMLButtonElement;
  settings: SnippetSettings;
  apiBase: string;
  language: Language;
  /** The generator's live preview: the panel as visitors see it, with no session and nothing to send. */
  preview?: boolean;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The chat panel: a dialog beside the button with the conversation (a live log), a notice for what the server
 * refused, and the message box. Text is only ever set as text, never as HTML. Escape closes it and gives the
 * focus back to the button.
 */
export class Panel {
  private readonly api: VisitorApi;
  private readonly i18n: Translator;
  private readonly panel: HTMLElement;
  private readonly title: HTMLElement;
  private readonly log: HTMLDivElement;
  private readonly notice: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private avatarName: string;
  private started: Promise<void> | null = null;
  private busy = false;

  constructor(private readonly o: PanelOptions) {
    this.api = new VisitorApi(o.apiBase, o.settings.key);
    this.i18n = translator(o.language);
    this.avatarName = o.settings.name;
    const { t } = this.i18n;
    this.panel = element('section', {
      id: 'avatar-studio-chat',
      class: 'panel',
      role: 'dialog',
      'aria-labelledby': 'avatar-studio-title',
      lang: o.language,
    });
    this.panel.hidden = true;
    const header = element('div', { class: 'header' });
    this.title = element('h2', { id: 'avatar-studio-title' }, o.settings.name);
    const close = element('button', { type: 'button', class: 'close', 'aria-label': t('close') }, '×');
    close.addEventListener('click', () => this.close());
    header.append(this.title, close);
    this.notice = element('div', { class: 'notice', role: 'alert' });
    this.log = element('div', {
      class: 'log',
      role: 'log',
      'aria-live': 'polite',
      'aria-label': o.settings.name,
    });
    const form = element('form');
    const label = element('label', { class: 'who', for: 'avatar-studio-input' }, t('placeholder'));
    this.input = element('textarea', {
      id: 'avatar-studio-input',
      rows: '1',
      maxlength: String(MAX_WIDGET_MESSAGE),
      placeholder: t('placeholder'),
    });
    this.send = element('button', { type: 'submit', class: 'send' }, t('send'));
    form.append(label, this.input, this.send);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.submit();
      }
    });
    this.panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.close();
      }
    });
    this.panel.append(header, this.notice, this.log, form);
    o.frame.append(this.panel);
    if (o.preview) {
      this.log.append(element('p', { class: 'hint' }, t('empty')));
      this.notice.textContent = t('preview');
      this.input.disabled = true;
      this.send.disabled = true;
    }
  }

  toggle(): void {
    if (this.panel.hidden) this.open();
    else this.close();
  }

  private open(): void {
    this.panel.hidden = false;
    this.o.button.setAttribute('aria-expanded', 'true');
    // The preview opens by itself beside the generator's form: it must not take the focus from it.
    if (this.o.preview) return;
    this.input.focus();
    this.started ??= this.start();
  }

  private close(): void {
    this.panel.hidden = true;
    this.o.button.setAttribute('aria-expanded', 'false');
    this.o.button.focus();
  }

  /** Opens the visitor's session and shows their conversation so far. */
  private async start(): Promise<void> {
    try {
      const session = await this.api.start();
      this.avatarName = session.widget.avatar_name || session.widget.name;
      this.title.textContent = session.widget.name;
      this.log.setAttribute('aria-label', session.widget.name);
      const messages = await this.api.history();
      this.log.replaceChildren();
      if (!messages.length) this.log.append(element('p', { class: 'hint' }, this.i18n.t('empty')));
      for (const m of messages) this.bubble(m.role, m.content);
      this.scroll();
    } catch (err) {
      this.refused(err);
      // The next opening tries again (the owner may have fixed what was wrong).
      this.started = null;
    }
  }

  private bubble(role: VisitorMessage['role'], text: string): HTMLElement {
    this.log.querySelector('.hint')?.remove();
    const item = element('div', { class: `msg ${role}` });
    const who = element(
      'span',
      { class: 'who' },
      `${role === 'user' ? this.i18n.t('you') : this.avatarName}: `,
    );
    const body = element('span', {}, text);
    item.append(who, body);
    this.log.append(item);
    return body;
  }

  private scroll(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }

  private refused(err: unknown): void {
    const { t, server } = this.i18n;
    this.notice.textContent =
      err instanceof WidgetRefusal ? (err.message ? server(err.message) : t('failed')) : t('offline');
  }

  private async submit(): Promise<void> {
    const text = this.input.value.trim();
    if (!text || this.busy || this.o.preview) return;
    this.busy = true;
    this.send.disabled = true;
    this.send.textContent = this.i18n.t('sending');
    this.notice.textContent = '';
    this.input.value = '';
    await this.started;
    this.bubble('user', text);
    const answer = this.bubble('assistant', '');
    const item = answer.parentElement!;
    item.setAttribute('aria-busy', 'true');
    answer.textContent = '';
    this.scroll();
    try {
      await this.api.ask(text, {
        delta: (piece) => {
          answer.textContent += piece;
          this.scroll();
        },
        done: (content) => {
          answer.textContent = content;
        },
      });
    } catch (err) {
      if (!answer.textContent) item.remove();
      // What was typed comes back, so a refused message is not lost.
      if (!this.input.value) this.input.value = text;
      this.refused(err);
    } finally {
      item.removeAttribute('aria-busy');
      this.busy = false;
      this.send.disabled = false;
      this.send.textContent = this.i18n.t('send');
      this.scroll();
    }
  }
}
