/** Test helpers of the template screens (test files only). */
import type { Template, TemplateField } from './model';

export function field(overrides: Partial<TemplateField> = {}): TemplateField {
  return { name: 'topic', label: 'Topic', type: 'text', options: [], order: 1, value: '', ...overrides };
}

/** A template of user 1 (the default test user) unless `user_id` says otherwise. */
export function template(overrides: Partial<Template> = {}): Template {
  return {
    template_id: 11,
    user_id: 1,
    organization_id: null,
    name: 'Blog post',
    description: 'Writes a blog post',
    content: 'Write a blog post about [topic] in a [tone] tone.',
    type: 'Writing',
    tags: 'blog,seo',
    language: 'en',
    public: false,
    editable: false,
    show_prompt: true,
    fields: [
      field(),
      field({
        name: 'tone',
        label: 'Tone',
        type: 'select',
        options: ['formal', 'casual'],
        order: 2,
        value: 'formal',
      }),
    ],
    favorite: false,
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-03T00:00:00.000Z',
    ...overrides,
  };
}

export const templatePage = (templates: Template[] = [template()], total = templates.length, page = 1) => ({
  body: { templates, total, page, limit: 24 },
});
