import { hashEmbedding } from './testing/hash-embedder';
import {
  choosingWords,
  chunkText,
  cosine,
  fuseRanks,
  pickPassages,
  searchQuery,
  searchWords,
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
});
