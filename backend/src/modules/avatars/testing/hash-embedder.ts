/**
 * A deterministic embedder for tests and benches (the fake AI provider's /v1/embeddings): character trigrams of
 * each word (with its edges) hashed into `dimensions` buckets, L2-normalised, so texts sharing words or word
 * stems come out close. It is not a language model; it measures that retrieval fuses and ranks correctly.
 * `dimensions` is EMBEDDING_DIMENSIONS in the app's use; this file imports nothing, so the bench can load it as is.
 */
export function hashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = `^${match[0]}$`;
    if (word.length < 4) continue;
    for (let i = 0; i + 3 <= word.length; i++) {
      const h = fnv1a(word.slice(i, i + 3));
      vector[h % dimensions] += h & 0x10000 ? 1 : -1;
    }
    // The whole word counts more than any one of its trigrams.
    const w = fnv1a(word);
    vector[w % dimensions] += w & 0x10000 ? 2 : -2;
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm ? vector.map((v) => v / norm) : vector;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
