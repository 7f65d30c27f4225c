import type { Widget } from './api';

/** Text safe inside a double-quoted HTML attribute. */
export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The embed snippet: the stylesheet, the div whose data attributes tell the widget what to show (user id,
 * avatar id, accent colour without #, widget name, image, widget key) and the script, all from `origin`.
 */
export function widgetSnippet(widget: Widget, origin: string): string {
  const attributes: [string, string][] = [
    ['data-user-id', String(widget.user_id)],
    ['data-avatar-id', String(widget.avatar_id)],
    ['data-accent-color', widget.accent_color],
    ['data-widget-name', widget.name],
    ['data-image', widget.image_url ?? ''],
    ['data-widget-key', widget.public_key],
  ];
  return [
    `<link rel="stylesheet" href="${origin}/widget/widget.css">`,
    `<div id="avatar-studio-widget"\n${attributes.map(([n, v]) => `  ${n}="${escapeAttribute(v)}"`).join('\n')}></div>`,
    `<script src="${origin}/widget/widget.js" defer></script>`,
  ].join('\n');
}

/** The allowed sites as typed, one a line or separated by commas or spaces. */
export function originsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
