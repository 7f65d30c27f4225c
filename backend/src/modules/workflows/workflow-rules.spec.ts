import { DomainError } from '../../common/errors/domain-error';
import { normalizeTags, workflowFields } from './workflow-rules';

describe('workflowFields', () => {
  it('lists the placeholders of every step in order, each name once, numbered from 1', () => {
    const fields = workflowFields([
      { content: 'A [tone[formal/casual]] outline about [topic].' },
      { content: 'A tweet about [topic] for [audience].' },
    ]);
    expect(fields.map((f) => [f.name, f.type, f.options, f.order, f.value])).toEqual([
      ['tone', 'select', ['formal', 'casual'], 1, 'formal'],
      ['topic', 'text', [], 2, ''],
      ['audience', 'text', [], 3, ''],
    ]);
  });

  it('keeps the settings saved on the template for its placeholders', () => {
    const [count] = workflowFields([
      {
        content: 'Give me [n] ideas',
        fields: [{ name: 'n', label: 'How many', type: 'number', options: '', order: 1 }],
      },
    ]);
    expect(count).toMatchObject({ name: 'n', label: 'How many', type: 'number' });
  });
});

describe('normalizeTags', () => {
  it('reads a comma string or a list, trimmed and deduplicated', () => {
    expect(normalizeTags(' a, b,,a ')).toEqual(['a', 'b']);
    expect(normalizeTags(['x', ' y'])).toEqual(['x', 'y']);
    expect(normalizeTags(null)).toEqual([]);
  });

  it('refuses more than 20 tags', () => {
    expect(() => normalizeTags(Array.from({ length: 21 }, (_, i) => `t${i}`))).toThrow(DomainError);
  });
});
