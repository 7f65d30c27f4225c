import { MAX_MESSAGE_TOKENS, estimateTokens } from './limits';

describe('message limits', () => {
  it('estimates tokens as the length divided by 4, rounded', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcdef')).toBe(2);
    expect(estimateTokens('abcdefg')).toBe(2);
    expect(estimateTokens('x'.repeat(MAX_MESSAGE_TOKENS * 4))).toBe(MAX_MESSAGE_TOKENS);
  });
});
