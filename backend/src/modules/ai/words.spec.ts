import { countWords } from './words';

describe('countWords', () => {
  it.each([
    ['', 0],
    ['   \n\t ', 0],
    ['hello', 1],
    ['  hello   world  ', 2],
    ['one\ntwo\tthree  four', 4],
    ['¿Qué tal? Muy bien.', 4],
    ['word\u00a0word', 2],
    ['e-mail, co-op; x', 3],
  ])('counts %j as %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  it('counts null and undefined as no words', () => {
    expect(countWords(null)).toBe(0);
    expect(countWords(undefined)).toBe(0);
  });
});
