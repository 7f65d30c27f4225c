import { hashtagItems, hashtagsInstruction, topicItems, topicsInstruction } from './idea-rules';

describe('idea rules', () => {
  it('reads one topic per line, without markers, quotes, blanks or repeats, up to the count', () => {
    const text = '1. First idea\n- "Second idea"\n\n* Third idea\n2) First idea\n• Fourth idea\nFifth';
    expect(topicItems(text, 4)).toEqual(['First idea', 'Second idea', 'Third idea', 'Fourth idea']);
    expect(topicItems('', 3)).toEqual([]);
  });

  it('finds the hashtags of any language, once each ignoring case, up to the count', () => {
    const text = '#Coffee #café_time\nnot a tag #coffee, #2024Trends #ñandú #';
    expect(hashtagItems(text, 10)).toEqual(['#Coffee', '#café_time', '#2024Trends', '#ñandú']);
    expect(hashtagItems(text, 2)).toEqual(['#Coffee', '#café_time']);
  });

  it('names the count, language and platform in the instructions', () => {
    expect(topicsInstruction(5, 'es')).toContain('exactly 5');
    expect(topicsInstruction(5, 'es')).toContain('Spanish');
    expect(hashtagsInstruction(8, 'linkedin')).toContain('LinkedIn');
    expect(hashtagsInstruction(8, 'linkedin')).toContain('exactly 8');
  });
});
