import { translator, type Language } from './i18n';
import type { SnippetSettings } from './snippet';
import { textOn } from './snippet';
import { STYLES } from './styles';

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8.4L4 21.5V18a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"/></svg>';

/** What the button shows: the widget's name (its label), colour and image. */
export type LauncherLook = Pick<SnippetSettings, 'name' | 'accent' | 'image'>;

export interface Launcher {
  frame: HTMLElement;
  button: HTMLButtonElement;
}

/**
 * Draws the chat button inside `div`'s own shadow root: the embedded widget and the generator's live preview
 * draw it with this one function, so the preview shows exactly what visitors will see.
 */
export function drawLauncher(
  div: HTMLElement,
  look: LauncherLook,
  language: Language,
  extraStyles = '',
): Launcher {
  const { t } = translator(language);
  const root = div.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = STYLES + extraStyles;
  // The colours live on our own element: a host rule on the div cannot change them.
  const frame = document.createElement('div');
  frame.className = 'frame';
  frame.style.setProperty('--accent', look.accent);
  frame.style.setProperty('--on-accent', textOn(look.accent));
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'launcher';
  button.setAttribute('aria-label', t('open', look.name));
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'avatar-studio-chat');
  if (look.image) {
    const img = document.createElement('img');
    img.src = look.image;
    img.alt = '';
    button.append(img);
  } else {
    button.innerHTML = CHAT_ICON;
  }
  frame.append(button);
  root.append(style, frame);
  return { frame, button };
}
