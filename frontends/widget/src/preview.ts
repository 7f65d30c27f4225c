import type { Language } from './i18n';
import { drawLauncher } from './launcher';
import { Panel } from './panel';
import { accentOf } from './snippet';

/** What the generator's form holds at the moment; the preview follows it as it changes. */
export interface PreviewSettings {
  name: string;
  /** Six hex digits, with or without # (the default red otherwise). */
  accent: string;
  /** An http(s) or blob: address of the button image, or null for the chat icon. */
  image: string | null;
  language: Language;
}

export interface WidgetPreview {
  update(settings: PreviewSettings): void;
  unmount(): void;
}

/** In the app the widget sits in the preview's box, not fixed to the page's corner as on a visitor's site. */
const PREVIEW_STYLES = `
.frame{position:relative;min-height:640px;display:flex;align-items:flex-end;justify-content:flex-end;padding:0 8px 8px 0}
.panel{bottom:84px;right:8px}
`;

/**
 * The live preview the chat widget generator shows (exposed to the app through Module Federation): the same
 * button and panel the embedded widget draws, open, with the form's name, colour and image. It opens no visitor
 * session and sends nothing.
 */
export function mountPreview(host: HTMLElement, settings: PreviewSettings): WidgetPreview {
  const draw = (next: PreviewSettings) => {
    // A shadow root cannot be removed: each change draws into a new element.
    const div = document.createElement('div');
    host.replaceChildren(div);
    const look = {
      name: next.name.trim().slice(0, 100) || 'Chat',
      accent: accentOf(next.accent),
      image: next.image && /^(https?|blob):/i.test(next.image) ? next.image : null,
    };
    const { frame, button } = drawLauncher(div, look, next.language, PREVIEW_STYLES);
    const panel = new Panel({
      frame,
      button,
      settings: { ...look, key: '', userId: null, avatarId: null },
      apiBase: '',
      language: next.language,
      preview: true,
    });
    button.addEventListener('click', () => panel.toggle());
    panel.toggle();
  };
  draw(settings);
  return { update: draw, unmount: () => host.replaceChildren() };
}
