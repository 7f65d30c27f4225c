/** Types and pure helpers of the template screens. */
import {
  hasStaffRole,
  templateGrammar,
  type ApiPaths,
  type ApiSchemas,
  type StaffRole,
} from '@avatar-studio/shared';

export type Template = ApiSchemas['TemplateDto'];
export type TemplateField = Template['fields'][number];
export type FieldType = TemplateField['type'];
export type TemplateLanguage = Template['language'];
export type TemplateSort = NonNullable<
  NonNullable<ApiPaths['/api/templates']['get']['parameters']['query']>['sortBy']
>;

export const TEMPLATES_KEY = 'templates';
/** Templates page size 24, a template card shows 1 tag. */
export const PAGE_SIZE = 24;
export const CARD_TAGS = 1;
/** Template label maximum 254 characters. */
export const MAX_LABEL_LENGTH = templateGrammar.MAX_LABEL_LENGTH;

export const SORT_OPTIONS: readonly TemplateSort[] = [
  'createdAt_desc',
  'updatedAt_desc',
  'name_asc',
  'name_desc',
];
export const TEMPLATE_LANGUAGES: readonly TemplateLanguage[] = ['en', 'es'];
export const FIELD_TYPES: readonly FieldType[] = ['text', 'number', 'select'];

/** Template validation messages, word for word: the server's own constants. */
export const MESSAGES = {
  empty: templateGrammar.EMPTY,
  incomplete: templateGrammar.INCOMPLETE,
  repeatedFields: templateGrammar.REPEATED_FIELDS,
  labelTooLong: templateGrammar.LABEL_TOO_LONG,
  selectNeedsOption: templateGrammar.SELECT_NEEDS_OPTION,
} as const;

export function splitTags(tags: string | null | undefined): string[] {
  return (tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

export type Placeholder = templateGrammar.Placeholder;
/** The server's placeholder grammar: `[name]`, or `[name[a/b/c]]` whose embedded options make a select field. */
export const parsePlaceholders = templateGrammar.parsePlaceholders;

/**
 * Whether one field is given its settings twice in the content (`[tone[a/b]] … [tone[c/d]]`): the two settings
 * would compete, so the form refuses it with 'Content can't have repeated fields'. A plain `[name]` may repeat.
 */
export function hasRepeatedFieldSettings(content: string): boolean {
  const withSettings = templateGrammar
    .placeholderOccurrences(content)
    .filter((p) => p.options !== null)
    .map((p) => p.name);
  return new Set(withSettings).size !== withSettings.length;
}

/** A field as the form edits it. */
export interface FieldDraft {
  name: string;
  label: string;
  type: FieldType;
  options: string[];
  order: number;
}

export function draftOf(field: TemplateField): FieldDraft {
  return {
    name: field.name,
    label: field.label,
    type: field.type,
    options: [...field.options],
    order: field.order,
  };
}

/**
 * The fields editor's list after the content changed, by the server's rule: one field per placeholder (first
 * appearance), keeping the settings already made for a name, else a select with the embedded options, else a
 * text field labelled with its name. A new field takes its placeholder's position as its order.
 */
export function deriveFields(content: string, previous: FieldDraft[]): FieldDraft[] {
  return parsePlaceholders(content).map((p, position) => {
    const old = previous.find((f) => f.name === p.name);
    if (old) return old;
    return p.options
      ? { name: p.name, label: p.name, type: 'select', options: p.options, order: position + 1 }
      : { name: p.name, label: p.name, type: 'text', options: [], order: position + 1 };
  });
}

export interface TemplateFormValues {
  name: string;
  description: string;
  content: string;
  type: string;
  tags: string[];
  language: TemplateLanguage;
  public: boolean;
  editable: boolean;
  show_prompt: boolean;
  fields: FieldDraft[];
}

/** Error messages keyed like the server's `details`: name, description, content, fields.N.label, fields.N.options[.i]. */
export type FormErrors = Record<string, string>;

/**
 * Template save rules. `contentShown` is false when the prompt is hidden from the editor (the server
 * keeps the stored one), so it is not checked here.
 */
export function validateTemplate(values: TemplateFormValues, contentShown: boolean): FormErrors {
  const errors: FormErrors = {};
  if (!values.name.trim()) errors.name = MESSAGES.empty;
  if (!values.description.trim()) errors.description = MESSAGES.empty;
  if (contentShown) {
    if (!values.content.trim()) errors.content = MESSAGES.empty;
    else if (hasRepeatedFieldSettings(values.content)) errors.content = MESSAGES.repeatedFields;
  }
  values.fields.forEach((field, index) => {
    const at = `fields.${index}`;
    const label = field.label.trim();
    if (!label) errors[`${at}.label`] = MESSAGES.empty;
    else if (label.length > MAX_LABEL_LENGTH) errors[`${at}.label`] = MESSAGES.labelTooLong;
    if (field.type === 'select') {
      if (field.options.length === 0) errors[`${at}.options`] = MESSAGES.selectNeedsOption;
      field.options.forEach((option, i) => {
        if (!option.trim()) errors[`${at}.options.${i}`] = MESSAGES.empty;
      });
    }
  });
  return errors;
}

/** Whether a required text (name, description, content) is missing: then the spec's alert is shown. */
export function missesRequiredText(errors: FormErrors): boolean {
  return ['name', 'description', 'content'].some((key) => errors[key] === MESSAGES.empty);
}

/** Whether field card `index` has any error (its card gets a red border). */
export function fieldHasError(errors: FormErrors, index: number): boolean {
  return Object.keys(errors).some((key) => key === `fields.${index}` || key.startsWith(`fields.${index}.`));
}

export interface Viewer {
  userId: number | null;
  staffRole: StaffRole | null;
}

/** The owner, a staff admin, or anyone when the template is marked editable may edit or delete it. */
export function canChangeTemplate(template: Pick<Template, 'user_id' | 'editable'>, viewer: Viewer): boolean {
  return (
    template.editable ||
    (viewer.userId !== null && template.user_id === viewer.userId) ||
    hasStaffRole(viewer.staffRole, 'admin')
  );
}

/** Which template form parts are visible; `template` is undefined when creating. */
export function formVisibility(template: Template | undefined, viewer: Viewer) {
  const creating = template === undefined;
  const owner = !creating && viewer.userId !== null && template.user_id === viewer.userId;
  const staff = viewer.staffRole !== null;
  return {
    /** Only staff admins may make a template public (the server refuses others). */
    public: hasStaffRole(viewer.staffRole, 'admin'),
    editableAndShowPrompt: creating || owner || staff,
    // A hidden prompt comes back as null: there is nothing to show or edit then.
    content: creating || ((template.show_prompt || owner || staff) && template.content !== null),
  };
}

/** The form's starting values for one template's fields: the default of a select is its first option. */
export function initialValues(fields: TemplateField[]): Record<string, string> {
  return Object.fromEntries(
    fields.map((f) => [f.name, f.type === 'select' ? (f.options[0] ?? '') : f.value]),
  );
}

/** Applying a template requires every field value to be non-empty. Returns the names still empty. */
export function missingValues(fields: TemplateField[], values: Record<string, string>): string[] {
  return fields.filter((f) => !(values[f.name] ?? '').trim()).map((f) => f.name);
}

export function sortedFields(fields: TemplateField[]): TemplateField[] {
  return [...fields].sort((a, b) => a.order - b.order);
}
