/** The chat widget as both sides speak it: limits, defaults, the spec's messages and the stream's events. */

/** The accent colour a new widget starts with. */
export const DEFAULT_WIDGET_ACCENT = '#ff0000';
/** An accent colour is six hex digits, with or without the leading #. */
export const WIDGET_ACCENT_PATTERN = /^#?[0-9a-fA-F]{6}$/;
export const MAX_WIDGET_NAME = 100;
/** Origins (scheme://host[:port]) one widget may be embedded on. */
export const MAX_WIDGET_ORIGINS = 20;
/** A visitor's message, in characters. */
export const MAX_WIDGET_MESSAGE = 2000;
/** Widgets one owner keeps in one scope. */
export const MAX_WIDGETS = 50;
/** A visitor's conversation shows its latest this many messages. */
export const WIDGET_HISTORY_LIMIT = 50;

/** The limits a new widget gets; its owner may lower or raise each within the bounds below. */
export const WIDGET_LIMIT_DEFAULTS = {
  messages_per_minute: 30,
  words_per_day: 20_000,
  max_concurrent_streams: 10,
} as const;
export const WIDGET_LIMIT_BOUNDS = {
  messages_per_minute: { min: 1, max: 600 },
  words_per_day: { min: 100, max: 10_000_000 },
  max_concurrent_streams: { min: 1, max: 1000 },
} as const;
/** One visitor sends at most this many messages a minute; one address opens at most this many sessions. */
export const WIDGET_VISITOR_MESSAGES_PER_MINUTE = 10;
export const WIDGET_ADDRESS_MESSAGES_PER_MINUTE = 30;
export const WIDGET_ADDRESS_SESSIONS_PER_MINUTE = 20;
/** A visitor token lives this long; an expired one still names its conversation for this long. */
export const WIDGET_VISITOR_TOKEN_TTL_SECONDS = 2 * 60 * 60;
export const WIDGET_VISITOR_RESUME_DAYS = 30;
/** Visitor tokens start with this, so every other route can tell one and refuse it. */
export const WIDGET_VISITOR_TOKEN_PREFIX = 'wv.';

export const WIDGET_MESSAGES = {
  selectAvatar: 'Please select an Avatar',
  nameRequired: 'Please type in a name for your Widget',
  generated: '{name} Widget Generated',
  copied: 'Avatar widget code copied to clipboard!',
  /** What a visitor reads when the widget cannot answer (disabled, no words, feature off). */
  unavailable: 'This chat is not available right now.',
  originRefused: 'This chat is not allowed on this site.',
  busy: 'Too many people are chatting right now. Please try again in a moment.',
  dailyLimit: 'This chat has answered all it can today. Please come back tomorrow.',
  slowDown: 'You are sending messages too quickly. Please wait a moment.',
} as const;

/** Server-Sent Events of a visitor's answer: `delta` pieces with their offset, then `done` or `error`. */
export interface WidgetStreamEvents {
  delta: { content: string; offset: number };
  done: { message_id: number; content: string; finish_reason: string };
  error: { code: string; message: string };
}

export const WIDGET_ERROR_CODES = [
  'widget_not_found',
  'widget_origin_refused',
  'widget_disabled',
  'widget_unavailable',
  'widget_quota_exceeded',
  'widget_busy',
  'widget_token_invalid',
  'widget_token_refused',
  'widget_limit',
  'widget_avatar_not_allowed',
] as const;

/**
 * Where the app finds the chat widget's live preview: a Module Federation container served with the widget's
 * bundle, set on `window` under `global` by `entry`, exposing `module` (mountPreview). The widget's build uses
 * the same names.
 */
export const WIDGET_PREVIEW_REMOTE = {
  entry: '/widget/preview-entry.js',
  global: 'avatarStudioWidgetPreview',
  module: './preview',
} as const;
