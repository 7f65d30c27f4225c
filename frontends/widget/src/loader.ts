import { pickLanguage, translator } from './i18n';
import type { Panel } from './panel';
import { readSnippet, textOn } from './snippet';
import { STYLES } from './styles';

/**
 * The loader: finds the embed snippet's div (`#avatar-studio-widget` or `.avatar-studio-widget`), draws the
 * chat button inside the div's own shadow root, and loads the chat panel on the first click. The API is the
 * origin this script was served from.
 */
const script = document.currentScript as HTMLScriptElement | null;
const API_BASE = script?.src ? new URL(script.src).origin : window.location.origin;

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8.4L4 21.5V18a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"/></svg>';

function mount(div: HTMLElement): void {
  if (div.shadowRoot || div.dataset.widgetMounted) return;
  const settings = readSnippet(div);
  if (!settings) return;
  div.dataset.widgetMounted = 'true';
  const language = pickLanguage();
  const { t } = translator(language);
  const root = div.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = STYLES;
  // The colours live on our own element: a host rule on the div cannot change them.
  const frame = document.createElement('div');
  frame.className = 'frame';
  frame.style.setProperty('--accent', settings.accent);
  frame.style.setProperty('--on-accent', textOn(settings.accent));
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'launcher';
  button.setAttribute('aria-label', t('open', settings.name));
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'avatar-studio-chat');
  if (settings.image) {
    const img = document.createElement('img');
    img.src = settings.image;
    img.alt = '';
    button.append(img);
  } else {
    button.innerHTML = CHAT_ICON;
  }
  frame.append(button);
  root.append(style, frame);

  let panel: Panel | null = null;
  button.addEventListener('click', () => {
    if (panel) return panel.toggle();
    button.disabled = true;
    import(/* webpackChunkName: "panel" */ './panel')
      .then(({ Panel }) => {
        panel = new Panel({ frame, button, settings, apiBase: API_BASE, language });
        panel.toggle();
      })
      .catch(() => undefined)
      .finally(() => (button.disabled = false));
  });
}

function mountAll(): void {
  document
    .querySelectorAll<HTMLElement>('#avatar-studio-widget, .avatar-studio-widget')
    .forEach((div) => mount(div));
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll);
else mountAll();
