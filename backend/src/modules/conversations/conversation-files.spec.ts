import type { DetectedType } from '../files/file-type';
import {
  ATTACHMENT_TOKEN_BUDGET,
  attachmentExcerpt,
  isAttachable,
  TRUNCATED_NOTE,
} from './conversation-files';

const type = (kind: DetectedType['kind'], mime: string): DetectedType => ({ kind, mime, ext: 'x' });

describe('isAttachable', () => {
  it('accepts documents and jpeg, png and webp images only', () => {
    expect(isAttachable(type('docx', 'd'))).toBe(true);
    expect(isAttachable(type('pdf', 'application/pdf'))).toBe(true);
    expect(isAttachable(type('pptx', 'p'))).toBe(true);
    expect(isAttachable(type('text', 'text/plain; charset=utf-8'))).toBe(true);
    expect(isAttachable(type('image', 'image/jpeg'))).toBe(true);
    expect(isAttachable(type('image', 'image/png'))).toBe(true);
    expect(isAttachable(type('image', 'image/webp'))).toBe(true);
    expect(isAttachable(type('image', 'image/gif'))).toBe(false);
    expect(isAttachable(type('video', 'video/mp4'))).toBe(false);
  });
});

describe('attachmentExcerpt', () => {
  it('keeps a short text whole', () => {
    expect(attachmentExcerpt('Buy milk.')).toBe('Buy milk.');
  });

  it('cuts a long text at a word break within the budget and says so', () => {
    const text = 'word '.repeat(10_000);
    const excerpt = attachmentExcerpt(text);
    expect(excerpt.length).toBeLessThanOrEqual(ATTACHMENT_TOKEN_BUDGET * 4 - 300);
    expect(excerpt.length).toBeGreaterThan(ATTACHMENT_TOKEN_BUDGET * 4 - 500);
    expect(excerpt.startsWith('word word')).toBe(true);
    expect(excerpt.endsWith(`word\n\n${TRUNCATED_NOTE}`)).toBe(true);
  });
});
