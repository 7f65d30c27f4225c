/** Test helpers of the document screens (test files only). */
import type { TextDocument } from './api';

export function textDocument(overrides: Partial<TextDocument> = {}): TextDocument {
  return {
    document_id: 7,
    user_id: 1,
    organization_id: null,
    name: 'Launch plan',
    tags: ['work'],
    content: '# Launch plan\n\nShip it on Monday.',
    blocks: null,
    version: 1,
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-03T00:00:00.000Z',
    ...overrides,
  };
}

export const documentPage = (documents: TextDocument[] = [textDocument()], total = documents.length) => ({
  body: { documents, total, page: 1, limit: 24 },
});
