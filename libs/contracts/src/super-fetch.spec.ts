import {
  buildSuperFetchPrompt,
  canGenerateSuperFetch,
  clampSuperFetchOutputs,
  DEFAULT_SUPER_FETCH_OUTPUTS,
  emptySuperFetchInputs,
  MAX_SUPER_FETCH_OUTPUTS,
  missingSuperFetchVariables,
  NO_CALL_TO_ACTION,
  SUPER_FETCH_INPUTS,
  SUPER_FETCH_PROMPT_VARIABLES,
  SUPER_FETCH_RESET_MESSAGE,
  superFetchFeedbackText,
  superFetchRequestOf,
  validateSuperFetchInputs,
  type SuperFetchInputState,
  type SuperFetchValues,
} from './super-fetch';

const BASE = SUPER_FETCH_PROMPT_VARIABLES.map((v) => `${v}: {${v}}`).join('\n');

const VALUES: SuperFetchValues = {
  task: 'Write a post',
  topic: 'Cold brew',
  target: 'Students',
  person: 'A barista',
  tone: 'Friendly',
  format: 'AIDA',
  examples: 'Brew it cold.',
  cta: 'Visit our shop',
  prompt: 'Under 100 words',
};

const filled = (): SuperFetchInputState[] =>
  emptySuperFetchInputs().map((i) => ({ ...i, value: VALUES[i.key] ?? '' }));

describe('Super Fetch inputs', () => {
  it('are the nine inputs in order, the first six required', () => {
    expect(SUPER_FETCH_INPUTS.map((i) => i.label)).toEqual([
      'Task',
      'Topic',
      'Target Audience',
      'Persona',
      'Tone',
      'Formula',
      'Examples',
      'Call to Action',
      'Manual Prompt',
    ]);
    expect(SUPER_FETCH_INPUTS.filter((i) => i.required).map((i) => i.key)).toEqual([
      'task',
      'topic',
      'target',
      'person',
      'tone',
      'format',
    ]);
    expect(emptySuperFetchInputs().every((i) => i.value === '' && i.isValid && !i.editable)).toBe(true);
  });

  it('marks empty (or blank) required inputs invalid and blocks generation; optional ones may stay empty', () => {
    const inputs = validateSuperFetchInputs(emptySuperFetchInputs().map((i) => ({ ...i, value: ' ' })));
    expect(inputs.filter((i) => !i.isValid).map((i) => i.key)).toEqual(
      SUPER_FETCH_INPUTS.filter((i) => i.required).map((i) => i.key),
    );
    expect(canGenerateSuperFetch(inputs, 1)).toBe(false);
    const ok = filled().map((i) => (i.required ? i : { ...i, value: '' }));
    expect(validateSuperFetchInputs(ok).every((i) => i.isValid)).toBe(true);
    expect(canGenerateSuperFetch(ok, 1)).toBe(true);
  });

  it('re-evaluates validity on every edit', () => {
    let inputs = validateSuperFetchInputs(emptySuperFetchInputs());
    expect(inputs[0].isValid).toBe(false);
    inputs = validateSuperFetchInputs(inputs.map((i, n) => (n === 0 ? { ...i, value: 'Write' } : i)));
    expect(inputs[0].isValid).toBe(true);
  });

  it('takes a required input kept as a field as valid without a value', () => {
    const inputs = filled().map((i) => (i.key === 'tone' ? { ...i, value: '', editable: true } : i));
    expect(validateSuperFetchInputs(inputs).every((i) => i.isValid)).toBe(true);
  });

  it('needs at least one output to generate', () => {
    expect(canGenerateSuperFetch(filled(), 0)).toBe(false);
  });
});

describe('the outputs count', () => {
  it('starts at 1 and cannot go below 0 nor above the maximum', () => {
    expect(DEFAULT_SUPER_FETCH_OUTPUTS).toBe(1);
    expect(clampSuperFetchOutputs(DEFAULT_SUPER_FETCH_OUTPUTS - 1)).toBe(0);
    expect(clampSuperFetchOutputs(-1)).toBe(0);
    expect(clampSuperFetchOutputs(MAX_SUPER_FETCH_OUTPUTS + 1)).toBe(MAX_SUPER_FETCH_OUTPUTS);
    expect(clampSuperFetchOutputs(2.7)).toBe(2);
    expect(clampSuperFetchOutputs(Number.NaN)).toBe(1);
  });
});

describe('the base prompt', () => {
  it('must contain every variable', () => {
    expect(SUPER_FETCH_PROMPT_VARIABLES).toEqual([
      'Task',
      'Topic',
      'Target',
      'Person',
      'Tone',
      'Format',
      'Examples',
      'CTA',
      'Prompt',
    ]);
    expect(missingSuperFetchVariables(BASE)).toEqual([]);
    expect(missingSuperFetchVariables('Write about {Topic} for {Target}')).toEqual([
      'Task',
      'Person',
      'Tone',
      'Format',
      'Examples',
      'CTA',
      'Prompt',
    ]);
    // A variable is written with braces; the bare word does not count.
    expect(missingSuperFetchVariables(BASE.replace('{CTA}', 'CTA'))).toEqual(['CTA']);
  });
});

describe('buildSuperFetchPrompt', () => {
  it('replaces each variable by its input’s value, in the base prompt’s order', () => {
    expect(buildSuperFetchPrompt(BASE, VALUES)).toBe(
      [
        'Task: Write a post',
        'Topic: Cold brew',
        'Target: Students',
        'Person: A barista',
        'Tone: Friendly',
        'Format: AIDA',
        'Examples: Brew it cold.',
        'CTA: Visit our shop',
        'Prompt: Under 100 words',
      ].join('\n'),
    );
  });

  it('writes an editable input as its bracketed label, a non-editable one as its value', () => {
    const prompt = buildSuperFetchPrompt(BASE, VALUES, { editable: ['target', 'cta'] });
    expect(prompt).toContain('Target: [Target Audience]');
    expect(prompt).toContain('CTA: [Call to Action]');
    expect(prompt).toContain('Tone: Friendly');
    expect(prompt).not.toContain('Students');
  });

  it('reads an empty call to action as having none', () => {
    expect(buildSuperFetchPrompt(BASE, { ...VALUES, cta: '  ' })).toContain(`CTA: ${NO_CALL_TO_ACTION}`);
    expect(NO_CALL_TO_ACTION).toBe('There is no call to action on this prompt');
    // Other optional inputs simply stay empty.
    expect(buildSuperFetchPrompt(BASE, { ...VALUES, examples: '' })).toContain('Examples: \n');
  });

  it('replaces a variable written more than once everywhere, and leaves user braces alone', () => {
    const prompt = buildSuperFetchPrompt(`${BASE}\nAgain: {Topic}`, { ...VALUES, topic: 'Tea {Tone}' });
    expect(prompt).toContain('Again: Tea {Tone}');
    expect(prompt.match(/Tea \{Tone\}/g)).toHaveLength(2);
  });

  it('appends feedback as requested changes, with the thumbs', () => {
    const up = buildSuperFetchPrompt(BASE, VALUES, { feedback: { liked: true, text: 'Shorter please' } });
    expect(
      up.endsWith('\n\nThe previous output was liked: keep what worked.\nRequested changes: Shorter please'),
    ).toBe(true);
    const down = buildSuperFetchPrompt(BASE, VALUES, { feedback: { liked: false, text: 'More emojis' } });
    expect(down).toContain('The previous output was not liked.\nRequested changes: More emojis');
    expect(superFetchFeedbackText({ liked: null, text: 'Fix the title' })).toBe(
      'Requested changes: Fix the title',
    );
    expect(superFetchFeedbackText(null)).toBe('');
    expect(buildSuperFetchPrompt(BASE, VALUES, { feedback: null })).toBe(buildSuperFetchPrompt(BASE, VALUES));
  });
});

describe('the form as sent', () => {
  it('carries every value and the keys kept as fields', () => {
    const inputs = filled().map((i) => (i.key === 'person' ? { ...i, editable: true } : i));
    expect(superFetchRequestOf(inputs)).toEqual({ values: VALUES, editable: ['person'] });
  });

  it('has the reset sentence as the spec spells it', () => {
    expect(SUPER_FETCH_RESET_MESSAGE).toBe('Super Fetcch reset.');
  });
});
