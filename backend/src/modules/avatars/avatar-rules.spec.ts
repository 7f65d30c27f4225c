import { combinedContext, MAX_AVATAR_CONTEXT } from './avatar-rules';

describe('combinedContext', () => {
  it('joins the selected context, the target context and the style guide, in that order', () => {
    expect(combinedContext(' You are a captain. ', 'You are a poet.', 'Rhyme.')).toBe(
      'You are a captain.\n\nYou are a poet.\n\nStyle guide:\nRhyme.',
    );
  });

  it('leaves out empty parts', () => {
    expect(combinedContext('', 'You are a poet.', '  ')).toBe('You are a poet.');
  });

  it('keeps to the context bound', () => {
    const long = 'x'.repeat(MAX_AVATAR_CONTEXT);
    expect(combinedContext(long, long, 'guide')).toHaveLength(MAX_AVATAR_CONTEXT);
  });
});
