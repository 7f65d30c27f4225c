/** Alerts: errors 5 s, successes 3 s; error texts mentioning 401/400 are suppressed, plain strings never. */
import { notifications } from '@mantine/notifications';
import { ApiError } from './api/client';

export const ALERT_MS = 5000;
export const SUCCESS_MS = 3000;

/** The text an error alert would show, or null when the rule suppresses it. */
export function errorAlertText(error: unknown): string | null {
  if (typeof error === 'string') return error;
  let text: string;
  if (error instanceof ApiError) text = error.message;
  else if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    // Axios-like shapes: prefer the server's message from the body.
    const body = (error as { response?: { data?: { message?: unknown } } }).response?.data;
    text = typeof body?.message === 'string' && body.message ? body.message : error.message;
  } else text = String(error ?? '');
  if (!text || text.includes('401') || text.includes('400')) return null;
  return text;
}

export function notifyError(error: unknown): void {
  const message = errorAlertText(error);
  if (message === null) return;
  notifications.show({ color: 'red', message, autoClose: ALERT_MS, withBorder: true });
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: SUCCESS_MS, withBorder: true });
}
