import { Typography } from '@mantine/core';
import MarkdownIt from 'markdown-it';
import { memo, useMemo } from 'react';
import './Markdown.css';

/**
 * AI text rendered as Markdown. `html: false` escapes any raw HTML in the text, so the output holds only the
 * tags markdown-it itself writes; its link validator already refuses javascript:, vbscript: and file: URLs.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true });

const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  // Links leave the app in a new tab without giving the opened page a handle on this one.
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** True for a URL on this app's own origin (a path, or this origin written out). */
function isOwnOrigin(src: string): boolean {
  if (src.startsWith('/') && !src.startsWith('//') && !src.startsWith('/\\')) return true;
  try {
    return new URL(src).origin === window.location.origin;
  } catch {
    return false;
  }
}

// An image from another site would let text the model was tricked into writing send data to that site as soon
// as it renders, so only images of our own origin are shown; any other image becomes a plain link to it.
const defaultImage = markdown.renderer.rules.image!;
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = String(token.attrGet('src') ?? '');
  if (isOwnOrigin(src)) return defaultImage(tokens, idx, options, env, self);
  const alt = token.children?.length ? self.renderInlineAsText(token.children, options, env) : '';
  const label = markdown.utils.escapeHtml(alt || src);
  if (!/^https?:\/\//i.test(src)) return label;
  const href = markdown.utils.escapeHtml(src);
  return `<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`;
};

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}

/** Markdown styled by the theme (light and dark): headings, lists, code blocks, tables, quotes. */
export const Markdown = memo(function Markdown({
  text,
  'data-testid': testId,
}: {
  text: string;
  'data-testid'?: string;
}) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <Typography className="chat-markdown" fz="sm" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
      {/* Safe: markdown-it with html: false (see above) is the only source of this HTML. */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
});
