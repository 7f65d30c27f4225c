/**
 * The embeddings model asked of OpenAI-compatible providers, and the size of its vectors. The size is also the
 * width of avatar_chunks.embedding_vector (pgvector) and of the fake provider's deterministic vectors, so it is
 * written here once; changing it needs a migration that rebuilds that column and its index.
 */
export const EMBEDDING_MODEL = 'text-embedding-3-small';
export const EMBEDDING_DIMENSIONS = 256;
