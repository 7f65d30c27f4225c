import { Typography } from '@mantine/core';
import MarkdownIt from 'markdown-it';
import { useMemo } from 'react';

/**
 * DESIGN §7: AI markdown is rendered sanitized. `html: false` escapes any raw HTML in the text, and markdown-it's
 * link validation refuses javascript:, vbscript:, file: and non-image data: URLs, so the output holds only the
 * tags markdown itself produces.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true });

// Links from generated text open outside the app and never get a handle on it.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}

export function Markdown({ text, 'data-testid': testId }: { text: string; 'data-testid'?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <Typography data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
