/**
 * Super Fetch: a form of nine inputs composed into one prompt from the base prompt of the app configuration.
 * Pure rules shared by the backend (which builds the prompt it sends) and the customer screen (which validates
 * the form and counts the outputs).
 */

/** The nine inputs, in the order the form shows them and the prompt reads them. */
export const SUPER_FETCH_INPUTS = [
  { key: 'task', label: 'Task', variable: 'Task', required: true },
  { key: 'topic', label: 'Topic', variable: 'Topic', required: true },
  { key: 'target', label: 'Target Audience', variable: 'Target', required: true },
  { key: 'person', label: 'Persona', variable: 'Person', required: true },
  { key: 'tone', label: 'Tone', variable: 'Tone', required: true },
  { key: 'format', label: 'Formula', variable: 'Format', required: true },
  { key: 'examples', label: 'Examples', variable: 'Examples', required: false },
  { key: 'cta', label: 'Call to Action', variable: 'CTA', required: false },
  { key: 'prompt', label: 'Manual Prompt', variable: 'Prompt', required: false },
] as const;

export type SuperFetchInputKey = (typeof SUPER_FETCH_INPUTS)[number]['key'];

export const SUPER_FETCH_INPUT_KEYS: readonly SuperFetchInputKey[] = SUPER_FETCH_INPUTS.map((i) => i.key);

/** The variables the base prompt must contain, each written `{Name}`. */
export const SUPER_FETCH_PROMPT_VARIABLES: readonly string[] = SUPER_FETCH_INPUTS.map((i) => i.variable);

/** What the prompt says in place of an empty call to action. */
export const NO_CALL_TO_ACTION = 'There is no call to action on this prompt';

/** The success sentence of a reset (the spec's own spelling). */
export const SUPER_FETCH_RESET_MESSAGE = 'Super Fetcch reset.';

/** Longest value of one input. */
export const MAX_SUPER_FETCH_INPUT = 4000;
/** The outputs count a new form starts with. */
export const DEFAULT_SUPER_FETCH_OUTPUTS = 1;
/** Most outputs one request may ask for: they run at once, within the per-user cap of running generations. */
export const MAX_SUPER_FETCH_OUTPUTS = 3;
/** Longest feedback text. */
export const MAX_SUPER_FETCH_FEEDBACK = 2000;
/** The attached file types whose text goes to the model. */
export const SUPER_FETCH_FILE_EXTENSIONS = ['docx', 'pdf', 'pptx', 'txt'] as const;

/** One input's state in the form. An editable input stays a `[Label]` field in the prompt instead of its value. */
export interface SuperFetchInputState {
  key: SuperFetchInputKey;
  label: string;
  value: string;
  required: boolean;
  editable: boolean;
  isValid: boolean;
}

/** The values sent for a generation: each input's text and whether it stays a field. */
export type SuperFetchValues = Partial<Record<SuperFetchInputKey, string>>;

/** The user's judgement of the last output: thumbs up (true), down (false) or none (null), and the changes asked. */
export interface SuperFetchFeedback {
  liked: boolean | null;
  text: string;
}

/** A fresh form: every input empty, not editable, valid until checked. */
export function emptySuperFetchInputs(): SuperFetchInputState[] {
  return SUPER_FETCH_INPUTS.map((i) => ({
    key: i.key,
    label: i.label,
    value: '',
    required: i.required,
    editable: false,
    isValid: true,
  }));
}

/** A required input is invalid when empty, unless it is kept as a field (its value is then not used). */
export function isSuperFetchInputValid(input: Pick<SuperFetchInputState, 'value' | 'required' | 'editable'>) {
  return !input.required || input.editable || input.value.trim() !== '';
}

/** The form with every input's validity evaluated again (on every edit and before generating). */
export function validateSuperFetchInputs(inputs: SuperFetchInputState[]): SuperFetchInputState[] {
  return inputs.map((i) => ({ ...i, isValid: isSuperFetchInputValid(i) }));
}

/** Generation is allowed only when every input is valid and at least one output is asked for. */
export function canGenerateSuperFetch(inputs: SuperFetchInputState[], outputs: number): boolean {
  return outputs >= 1 && inputs.every(isSuperFetchInputValid);
}

/** The outputs count after a change: a whole number from 0 to MAX_SUPER_FETCH_OUTPUTS. */
export function clampSuperFetchOutputs(count: number): number {
  if (!Number.isFinite(count)) return DEFAULT_SUPER_FETCH_OUTPUTS;
  return Math.min(MAX_SUPER_FETCH_OUTPUTS, Math.max(0, Math.trunc(count)));
}

/** The base prompt's missing variables (empty when it has them all). */
export function missingSuperFetchVariables(basePrompt: string): string[] {
  return SUPER_FETCH_PROMPT_VARIABLES.filter((v) => !basePrompt.includes(`{${v}}`));
}

/** Any of the variables, written `{Name}` (a fixed alternation: linear). */
const VARIABLE_PATTERN = new RegExp(`\\{(${SUPER_FETCH_INPUTS.map((i) => i.variable).join('|')})\\}`, 'g');

/** The text that replaces one input's variable. */
export function superFetchInputText(
  key: SuperFetchInputKey,
  value: string | undefined,
  editable: boolean,
): string {
  const input = SUPER_FETCH_INPUTS.find((i) => i.key === key);
  if (!input) return '';
  if (editable) return `[${input.label}]`;
  const text = (value ?? '').trim();
  if (key === 'cta' && text === '') return NO_CALL_TO_ACTION;
  return text;
}

/** The sentence appended to the prompt for feedback on the previous output; empty without feedback. */
export function superFetchFeedbackText(feedback: SuperFetchFeedback | null | undefined): string {
  if (!feedback) return '';
  const lines: string[] = [];
  if (feedback.liked === true) lines.push('The previous output was liked: keep what worked.');
  if (feedback.liked === false) lines.push('The previous output was not liked.');
  const text = feedback.text.trim();
  if (text) lines.push(`Requested changes: ${text}`);
  return lines.join('\n');
}

/**
 * The prompt: the base prompt with each `{Variable}` replaced by its input's text (an editable input as its
 * bracketed label, an empty call to action as NO_CALL_TO_ACTION), then the feedback as requested changes.
 */
export function buildSuperFetchPrompt(
  basePrompt: string,
  values: SuperFetchValues,
  options: { editable?: readonly SuperFetchInputKey[]; feedback?: SuperFetchFeedback | null } = {},
): string {
  const editable = new Set(options.editable ?? []);
  const byVariable = new Map<string, string>(
    SUPER_FETCH_INPUTS.map((i) => [
      i.variable,
      superFetchInputText(i.key, values[i.key], editable.has(i.key)),
    ]),
  );
  // One pass over the base prompt, so braces inside a value are never read as variables.
  const prompt = basePrompt.replace(VARIABLE_PATTERN, (whole, name: string) => byVariable.get(name) ?? whole);
  const feedback = superFetchFeedbackText(options.feedback);
  return feedback ? `${prompt.trimEnd()}\n\n${feedback}` : prompt;
}

/** The form's state as it is sent: values and the keys kept as fields. */
export function superFetchRequestOf(inputs: SuperFetchInputState[]): {
  values: SuperFetchValues;
  editable: SuperFetchInputKey[];
} {
  const values: SuperFetchValues = {};
  for (const i of inputs) values[i.key] = i.value;
  return { values, editable: inputs.filter((i) => i.editable).map((i) => i.key) };
}
