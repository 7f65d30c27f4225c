import { pickLanguage } from './i18n';
import { drawLauncher } from './launcher';
import type { Panel } from './panel';
import { readSnippet } from './snippet';

/**
 * The loader: finds the embed snippet's div (`#avatar-studio-widget` or `.avatar-studio-widget`), draws the
 * chat button inside the div's own shadow root, and loads the chat panel on the first click. The API is the
 * origin this script was served from.
 */
const script = document.currentScript as HTMLScriptElement | null;
const API_BASE = script?.src ? new URL(script.src).origin : window.location.origin;

function mount(div: HTMLElement): void {
  if (div.shadowRoot || div.dataset.widgetMounted) return;
  const settings = readSnippet(div);
  if (!settings) return;
  div.dataset.widgetMounted = 'true';
  const language = pickLanguage();
  const { frame, button } = drawLauncher(div, settings, language);

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
