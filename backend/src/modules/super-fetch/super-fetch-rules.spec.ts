import { missingRequiredInputs, requiredInputMessage, SUPER_FETCH_KIND_BY_MIME } from './super-fetch-rules';

describe('Super Fetch request rules', () => {
  it('names the empty required inputs in form order, leaving out those kept as fields', () => {
    expect(missingRequiredInputs({ task: 'x', topic: ' ', tone: 'y' }, [])).toEqual([
      'Topic',
      'Target Audience',
      'Persona',
      'Formula',
    ]);
    expect(
      missingRequiredInputs({ task: 'x', tone: 'y', format: 'z' }, ['topic', 'target', 'person']),
    ).toEqual([]);
    expect(requiredInputMessage('Topic')).toBe("Topic can't be empty.");
  });

  it('reads only docx, pdf, pptx and txt files', () => {
    expect(Object.values(SUPER_FETCH_KIND_BY_MIME).sort()).toEqual(['docx', 'pdf', 'pptx', 'text']);
  });
});
