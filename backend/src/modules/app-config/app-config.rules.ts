import { missingSuperFetchVariables } from '@avatar-studio/contracts';
import type { ConfigKey } from './app-config.keys';

/** Longest value accepted for any key (tracking snippets and prompts are the long ones). */
export const MAX_CONFIG_VALUE_LENGTH = 50_000;

const COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * Checks one value against its key's type. Returns the problem as a sentence, or null when the value is fine.
 * Empty means "unset" and is accepted for every type except booleans.
 */
export function checkConfigValue(def: ConfigKey, value: string): string | null {
  if (value.length > MAX_CONFIG_VALUE_LENGTH) {
    return `The value of ${def.key} is too long (at most ${MAX_CONFIG_VALUE_LENGTH} characters).`;
  }
  if (def.type === 'boolean') {
    return value === 'true' || value === 'false' ? null : `${def.key} must be true or false.`;
  }
  if (value === '') return null;
  if (def.options && !def.options.includes(value)) {
    return `${def.key} must be one of ${def.options.join(', ')}.`;
  }
  switch (def.type) {
    case 'color':
      return COLOR.test(value) ? null : `${def.key} must be a colour like #1a2b3c.`;
    case 'url':
      return isHttpUrl(value) || (def.localPath && isLocalPath(value))
        ? null
        : `${def.key} must be an http(s) URL.`;
    case 'json':
      try {
        const parsed: unknown = JSON.parse(value);
        return parsed !== null && typeof parsed === 'object' ? null : `${def.key} must be a JSON object.`;
      } catch {
        return `${def.key} must be valid JSON.`;
      }
    default:
      break;
  }
  if (def.key === 'super_fetch_prompt') {
    const missing = missingSuperFetchVariables(value);
    if (missing.length) {
      return `The Super Fetch prompt must include ${missing.map((v) => `{${v}}`).join(', ')}.`;
    }
  }
  return null;
}

/**
 * A path on this server: an uploaded file's src is `/api/files/content/...`, and logos or placeholders are
 * usually uploaded. Protocol-relative `//host` is not a path.
 */
export function isLocalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !/[\s\\]/.test(value);
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Turns what a client sent into the stored text form ('true'/'false' for JSON booleans). */
export function normalizeConfigValue(value: string | boolean | null): string | null {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return null;
  return value.trim() === value ? value : value.trim();
}
