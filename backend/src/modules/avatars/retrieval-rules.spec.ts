import { EMBEDDING_DIMENSIONS } from '../ai/embedding-model';
import { hashEmbedding as embed } from './testing/hash-embedder';

const hashEmbedding = (text: string) => embed(text, EMBEDDING_DIMENSIONS);
import {
  choosingWords,
  chunkText,
  cosine,
  fuseRanks,
  nearestSql,
  pickPassages,
  searchQuery,
  searchWords,
  unionCandidates,
  vectorLiteral,
} from './retrieval-rules';

describe('retrieval rules', () => {
  it('cuts a text into passages at paragraph or sentence ends, overlapping, losing no text', () => {
    const text = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} says something about topic ${i}.`,
    ).join(' ');
    const chunks = chunkText(text, 200, 40);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(200);
    for (const chunk of chunks.slice(0, -1)) expect(chunk).toMatch(/\.$/);
    for (let i = 0; i < 40; i++) expect(chunks.some((c) => c.includes(`number ${i} says`))).toBe(true);
    expect(chunkText('   ')).toEqual([]);
    expect(chunkText('Short text.')).toEqual(['Short text.']);
  });

  it('takes each word of a question once, without operators, as an any-word query', () => {
    const words = searchWords('What OR is the code, the CODE and NOT the Bluefin-7 launch? a');
    expect(words).toEqual(['what', 'is', 'the', 'code', 'bluefin', 'launch']);
    expect(searchQuery(words)).toBe('what OR is OR the OR code OR bluefin OR launch');
    expect(searchQuery([])).toBeNull();
  });

  it('chooses candidates by rare words only, or by the rarest when every word is common', () => {
    const stems = new Map([
      ['the', []],
      ['project', ['project']],
      ['bluefin', ['bluefin']],
      ['code', ['code']],
    ]);
    const shares = new Map([
      ['project', 0.9],
      ['code', 0.01],
    ]);
    expect(choosingWords(['the', 'project', 'bluefin', 'code'], stems, shares)).toEqual(['bluefin', 'code']);
    expect(choosingWords(['the', 'project'], stems, shares)).toEqual(['project']);
    expect(choosingWords(['the'], stems, shares)).toEqual([]);
  });

  it('fuses rankings: what both rank well comes first', () => {
    expect(
      fuseRanks([
        ['a', 'b', 'c'],
        ['b', 'c', 'a'],
      ])[0],
    ).toBe('b');
    expect(fuseRanks([['a', 'b'], []])).toEqual(['a', 'b']);
  });

  it('re-ranks full-text candidates with embeddings', () => {
    const passages = [
      'The budget of the Lisbon depot is 40 thousand euros.',
      'The access code of the Lisbon warehouse is 4471.',
      'Notes from the Lisbon warehouse: the weekly meeting.',
    ].map((content, i) => ({
      chunk_id: String(i),
      avatar_file_id: 1,
      content,
      embedding: hashEmbedding(content),
    }));
    // Full text alone ranked the notes first; the embedding of the question prefers the access code.
    const fullText = [passages[2], passages[1], passages[0]];
    const question = hashEmbedding('Which access code opens the Lisbon warehouse?');
    expect(pickPassages(fullText, question)[0].chunk_id).toBe('1');
    expect(pickPassages(fullText, null).map((c) => c.chunk_id)).toEqual(['2', '1', '0']);
    expect(cosine(question, question)).toBeCloseTo(1);
  });

  it('adds the passages found by embedding alone to the full-text candidates, each once, and fuses them', () => {
    const passage = (id: string, content: string) => ({
      chunk_id: id,
      avatar_file_id: 1,
      content,
      embedding: hashEmbedding(content),
    });
    const notes = passage('1', 'Notes from the Lisbon warehouse: the weekly meeting about the night shift.');
    const fact = passage('2', 'Marguerite Okonkwo is the supervisor of the nightly shifts.');
    const other = passage('3', 'The cafeteria menu changes monthly.');
    const pool = unionCandidates([notes, other], [fact, notes]);
    expect(pool.map((c) => c.chunk_id)).toEqual(['1', '3', '2']);
    // Full text found only the notes and the menu; the nearest passage by embedding comes first once fused.
    const question = hashEmbedding('Who supervises the night shifts?');
    const picked = pickPassages([notes, other], question, pool);
    expect(picked.map((c) => c.chunk_id)).toContain('2');
    expect(picked).toHaveLength(3);
    // Without the wider pool the fact is not there at all.
    expect(pickPassages([notes, other], question).map((c) => c.chunk_id)).not.toContain('2');
  });

  it('writes embeddings as pgvector literals and names pgvector’s schema in the nearest query', () => {
    expect(vectorLiteral(new Float32Array([0.5, -0.25, 1]))).toBe('[0.5,-0.25,1]');
    const sql = nearestSql('ext');
    expect(sql).toContain('OPERATOR("ext".<=>) $2::"ext".vector');
    expect(sql).toContain('c.avatar_id = $1');
    expect(sql).toContain('LIMIT $3');
  });
});
