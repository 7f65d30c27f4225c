import { randomBytes } from 'node:crypto';

/** The key an embed snippet carries: `wk_` and 24 hex digits. */
export const WIDGET_KEY_PATTERN = /^wk_[0-9a-f]{24}$/;
export const newWidgetKey = () => `wk_${randomBytes(12).toString('hex')}`;

/** The widget API path with a key: `/api/widget/{key}/...` (read before routing, for CORS). */
const KEY_IN_PATH = /^\/api\/widget\/(wk_[0-9a-f]{24})(?:[/?]|$)/;
export function widgetKeyOfPath(url: string): string | null {
  return KEY_IN_PATH.exec(url)?.[1] ?? null;
}
export const isWidgetApiPath = (url: string) => url === '/api/widget' || url.startsWith('/api/widget/');

/** Our fixed instruction for widget answers; the avatar's context follows as its owner's instruction. */
export const WIDGET_INSTRUCTION =
  'You are answering a visitor of a website in its chat widget. Answer helpfully and briefly, in the language ' +
  'the visitor writes in.';

/** Words one widget answer may use at most (its reservation). */
export const WIDGET_ANSWER_MAX_WORDS = 800;
/** Messages of the conversation the model sees before the question. */
export const WIDGET_PROMPT_HISTORY = 20;

/**
 * An allowed origin as typed ("https://www.example.com", "http://localhost:8080/"), as the browser sends it in
 * `Origin`: scheme, host and port only. Null when it is not an http(s) site address with nothing after the host.
 */
export function normalizeOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' && url.pathname !== '') return null;
  return url.origin;
}

/** The accent colour as stored: six lower-case hex digits without #. */
export const storedAccent = (colour: string) => colour.replace(/^#/, '').toLowerCase();

/** Midnight UTC of `now`'s day: the day of words_per_day. */
export function startOfUtcDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
