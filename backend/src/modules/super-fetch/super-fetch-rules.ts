import { SUPER_FETCH_INPUTS, type SuperFetchInputKey, type SuperFetchValues } from '@avatar-studio/contracts';
import type { FileKind } from '../files/file-type';

/** Our fixed instruction for every Super Fetch generation (system text; the composed prompt is user content). */
export const SUPER_FETCH_INSTRUCTION =
  'You are a Super Fetch assistant: you write the content the next message asks for, following its task, ' +
  'audience, persona, tone and format. Earlier messages are your previous outputs and the feedback on them: ' +
  'learn from them. Answer with the content only.';

/** How many earlier history entries a new request learns from, and how much of each. */
export const LEARNING_MESSAGES = 6;
export const LEARNING_CHARS = 4000;
/** The most history entries one call answers. */
export const HISTORY_LIMIT = 100;
/** Longest composed prompt POST /super_fetch takes as one message. */
export const MAX_SUPER_FETCH_MESSAGE = 20_000;

/** The stored types (typed from the content) an attached file may have, with the kind its text is read as. */
export const SUPER_FETCH_KIND_BY_MIME: Readonly<Record<string, FileKind>> = {
  'text/plain; charset=utf-8': 'text',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

/** The sentence for an empty required input. */
export const requiredInputMessage = (label: string) => `${label} can't be empty.`;

/** The labels of the required inputs that are empty and not kept as fields, in form order. */
export function missingRequiredInputs(
  values: SuperFetchValues,
  editable: readonly SuperFetchInputKey[],
): string[] {
  return SUPER_FETCH_INPUTS.filter(
    (i) => i.required && !editable.includes(i.key) && !(values[i.key] ?? '').trim(),
  ).map((i) => i.label);
}
