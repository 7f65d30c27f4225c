import type { DetectedType } from '../files/file-type';
import { ATTACHMENT_TOKEN_BUDGET, attachmentText, isAttachable, TRUNCATED_NOTE } from './conversation-files';

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

describe('attachmentText', () => {
  it('keeps a short text whole after the file name', () => {
    expect(attachmentText('notes.txt', 'Buy milk.')).toBe(
      'The user attached the file notes.txt. Its text:\nBuy milk.',
    );
  });

  it('cuts a long text at a word break within the budget and says so', () => {
    const text = 'word '.repeat(10_000);
    const message = attachmentText('long.pdf', text);
    expect(message.length).toBeLessThanOrEqual(ATTACHMENT_TOKEN_BUDGET * 4);
    expect(message.length).toBeGreaterThan(ATTACHMENT_TOKEN_BUDGET * 4 - 200);
    expect(message.startsWith('The user attached the file long.pdf. Its text:\nword word')).toBe(true);
    expect(message.endsWith(`word\n\n${TRUNCATED_NOTE}`)).toBe(true);
  });
});
