/** Passages (chunks) of a file: about this many characters, cut at paragraph or sentence ends where possible. */
export const CHUNK_TARGET_CHARS = 800;
/** Characters repeated from the end of a chunk at the start of the next, so a fact cut in two is still whole. */
export const CHUNK_OVERLAP_CHARS = 120;
/** At most this many chunks per file (a 65,000-character text makes about 90). */
export const MAX_CHUNKS_PER_FILE = 2_000;
/** Passages given to the model per answer. */
export const PASSAGES_PER_ANSWER = 5;
/** Full-text candidates that embeddings re-rank. */
export const FULL_TEXT_CANDIDATES = 50;
/** Rank fusion constant (reciprocal rank fusion's k). */
export const FUSION_K = 60;
/** Search terms taken from a question. */
const MAX_TERMS = 32;
/** Words that websearch_to_tsquery reads as operators. */
const OPERATOR_WORDS = new Set(['or', 'and', 'not']);

/**
 * Splits a text into passages of about CHUNK_TARGET_CHARS, ending each at the last paragraph break, else sentence
 * end, else space inside the window, and starting the next CHUNK_OVERLAP_CHARS earlier. One pass over the text.
 */
export function chunkText(
  text: string,
  target = CHUNK_TARGET_CHARS,
  overlap = CHUNK_OVERLAP_CHARS,
): string[] {
  const clean = text.replace(/\r\n?/g, '\n').trim();
  const chunks: string[] = [];
  let start = 0;
  while (start < clean.length && chunks.length < MAX_CHUNKS_PER_FILE) {
    let end = Math.min(clean.length, start + target);
    if (end < clean.length) {
      const window = clean.slice(start, end);
      const minimum = Math.floor(target / 2);
      const cut = [window.lastIndexOf('\n\n'), lastSentenceEnd(window), window.lastIndexOf(' ')].find(
        (at) => at >= minimum,
      );
      if (cut !== undefined) end = start + cut + 1;
    }
    const piece = clean.slice(start, end).trim();
    if (piece) chunks.push(piece);
    if (end >= clean.length) break;
    start = Math.max(start + 1, end - overlap);
    // Start the overlap at a word boundary.
    const space = clean.indexOf(' ', start);
    if (space !== -1 && space < end) start = space + 1;
  }
  return chunks;
}

function lastSentenceEnd(window: string): number {
  for (let i = window.length - 2; i >= 0; i--) {
    const c = window[i];
    if ((c === '.' || c === '!' || c === '?') && /\s/.test(window[i + 1])) return i + 1;
  }
  return -1;
}

/** The words of a question a full-text query uses: lower case, each once, at most MAX_TERMS. */
export function searchWords(question: string): string[] {
  const seen = new Set<string>();
  for (const match of question.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < 2 || OPERATOR_WORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
    if (seen.size >= MAX_TERMS) break;
  }
  return [...seen];
}

/**
 * Words as a full-text query where any may match (`a OR b OR c`, for websearch_to_tsquery, which never fails
 * on its input): ranking then prefers the passages holding the most of them. Null for no words.
 */
export function searchQuery(words: string[]): string | null {
  return words.length ? words.join(' OR ') : null;
}

/** A word found in more than this share of all passages only ranks passages; it does not choose them. */
export const COMMON_WORD_SHARE = 0.02;
/** When every word is common, the candidates are the passages holding one of this many rarest words. */
const RAREST_WHEN_ALL_COMMON = 2;

/**
 * The words that choose the candidate passages: those whose stems are rare (`share` of passages holding them,
 * from the database's statistics; unknown = rare). Common words would make every passage a candidate and its
 * rank computed, which at 100,000 passages takes a second; they still weigh in the rank. Stop words (no stems)
 * choose nothing.
 */
export function choosingWords(
  words: string[],
  stems: Map<string, string[]>,
  share: Map<string, number>,
): string[] {
  const scored = words
    .filter((w) => (stems.get(w) ?? []).length > 0)
    .map((w) => ({ w, share: Math.max(...stems.get(w)!.map((stem) => share.get(stem) ?? 0)) }));
  const rare = scored.filter((s) => s.share <= COMMON_WORD_SHARE);
  if (rare.length) return rare.map((s) => s.w);
  return scored
    .sort((a, b) => a.share - b.share)
    .slice(0, RAREST_WHEN_ALL_COMMON)
    .map((s) => s.w);
}

/** Reciprocal rank fusion: each list adds 1 / (k + rank) to its ids; best first. */
export function fuseRanks<T>(lists: T[][], k = FUSION_K): T[] {
  const scores = new Map<T, number>();
  for (const list of lists)
    list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Candidate ids ordered by their embedding's cosine to the question's, best first (no embedding: left out). */
export function rankByEmbedding<T>(
  question: ArrayLike<number>,
  candidates: { id: T; embedding: ArrayLike<number> | null }[],
): T[] {
  return candidates
    .filter((c) => c.embedding && c.embedding.length)
    .map((c) => ({ id: c.id, score: cosine(question, c.embedding!) }))
    .sort((a, b) => b.score - a.score)
    .map((c) => c.id);
}

/** Below this many passages an avatar's embeddings are all compared; above, only the full-text candidates'. */
export const ALL_CHUNKS_LIMIT = 2_000;

/**
 * An avatar's passages holding any of the choosing words ($2), best full-text rank by all words ($3) first, at
 * most $4 (both in websearch_to_tsquery syntax). Kept here, like the two queries below, so that the retrieval
 * bench measures the very queries the app runs. `avatar_id + 0` keeps the planner on the text index: through the
 * avatar's index it read all 100,000 passages of a large avatar (435 ms instead of 3 ms).
 */
export const FULL_TEXT_SQL = `SELECT c.chunk_id::text AS chunk_id, c.avatar_file_id, c.content, c.embedding
   FROM avatar_chunks c, websearch_to_tsquery('english', $2) pick, websearch_to_tsquery('english', $3) q
  WHERE c.avatar_id + 0 = $1 AND c.tsv @@ pick
  ORDER BY ts_rank_cd(c.tsv, q) DESC, c.chunk_id
  LIMIT $4`;

/** The stems of each word ($1, text[]) as the passages' index holds them. */
export const STEMS_SQL = `SELECT w AS word, tsvector_to_array(to_tsvector('english', w)) AS stems
   FROM unnest($1::text[]) AS w`;

/**
 * The most common stems of all passages and the share of passages holding each, from the statistics ANALYZE
 * keeps for the tsvector column (none before the table is first analyzed: then every word counts as rare).
 */
export const COMMON_STEMS_SQL = `SELECT s.most_common_elems::text::text[] AS stems, s.most_common_elem_freqs AS shares
   FROM pg_stats s
  WHERE s.schemaname = current_schema() AND s.tablename = 'avatar_chunks' AND s.attname = 'tsv'`;

/** Passages of a large avatar found by their embedding alone (pgvector), beside its full-text candidates. */
export const NEAREST_CANDIDATES = 50;
/**
 * Index entries HNSW reads per step. With iterative scans, a search filtered to one avatar among many keeps
 * reading until it has LIMIT of that avatar's passages (or reaches hnsw.max_scan_tuples).
 */
export const HNSW_EF_SEARCH = 100;

/**
 * The settings of the nearest-passages query, set for its transaction only: `relaxed_order` lets the index go on
 * past its first candidates when the avatar filter drops them, at the price of a slightly unordered result, which
 * is harmless because the passages are ranked again exactly by cosine (rankByEmbedding).
 */
export const NEAREST_SETTINGS_SQL = [
  `SET LOCAL hnsw.iterative_scan = relaxed_order`,
  `SET LOCAL hnsw.ef_search = ${HNSW_EF_SEARCH}`,
];

/**
 * An avatar's ($1) passages nearest to a question's embedding ($2, a vector literal) by cosine distance, at most
 * $3, through the HNSW index on embedding_vector. `schema` is pgvector's, named because the app's search_path may
 * not include it (it must be a schema name read from pg_extension, never user input).
 */
export function nearestSql(schema: string): string {
  return `SELECT c.chunk_id::text AS chunk_id, c.avatar_file_id, c.content, c.embedding
   FROM avatar_chunks c
  WHERE c.avatar_id = $1 AND c.embedding_vector IS NOT NULL
  ORDER BY c.embedding_vector OPERATOR("${schema}".<=>) $2::"${schema}".vector
  LIMIT $3`;
}

/** An embedding in pgvector's text form (`[0.1,0.2,...]`). */
export function vectorLiteral(embedding: ArrayLike<number>): string {
  return `[${Array.from(embedding).join(',')}]`;
}

/** The candidates of both lists, each passage once, in the first list's order then the second's. */
export function unionCandidates<C extends { chunk_id: string }>(first: C[], second: C[]): C[] {
  const seen = new Set<string>();
  return [...first, ...second].filter((c) => !seen.has(c.chunk_id) && seen.add(c.chunk_id));
}

/** A passage considered for an answer. */
export interface Candidate {
  chunk_id: string;
  avatar_file_id: number;
  content: string;
  embedding: ArrayLike<number> | null;
}

/**
 * The passages to give the model: the full-text ranking fused with the embedding ranking (of `pool`, or of the
 * full-text candidates when there is no wider pool), best first. Without a question embedding, full text alone.
 */
export function pickPassages(
  fullText: Candidate[],
  questionEmbedding: ArrayLike<number> | null,
  pool: Candidate[] = fullText,
  limit = PASSAGES_PER_ANSWER,
): Candidate[] {
  const byId = new Map<string, Candidate>();
  for (const c of [...fullText, ...pool]) byId.set(c.chunk_id, c);
  const lists = [fullText.map((c) => c.chunk_id)];
  if (questionEmbedding)
    lists.push(
      rankByEmbedding(
        questionEmbedding,
        pool.map((c) => ({ id: c.chunk_id, embedding: c.embedding })),
      ).slice(0, FULL_TEXT_CANDIDATES),
    );
  return fuseRanks(lists)
    .slice(0, limit)
    .map((id) => byId.get(id)!);
}
