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
