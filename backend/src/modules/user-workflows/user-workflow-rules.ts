import { badInput } from '../../common/errors/domain-error';
import { missingValues } from '../templates/template-rules';

export const STEP_STATUSES = ['pending', 'generating', 'done', 'failed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const VALUES_FORMAT = 'Values must look like name=value, separated by commas.';
export const VALUE_NOT_TEXT = 'Each value must be a text.';
/** The step's error when the process running it stopped (set at the next start). */
export const INTERRUPTED = 'Interrupted. Regenerate this step.';
export const MAX_VALUES_LENGTH = 100_000;
export const MAX_VALUES = 200;

/**
 * Field values as given: the spec's comma string ("tone=formal, topic=cats": split on commas, the first "=" of
 * each piece separates name and value, both trimmed; blank pieces are skipped) or an object of texts (numbers are
 * read as text). A piece without "=" or without a name is refused. A repeated name keeps its last value.
 */
export function parseValues(input: unknown): Record<string, string> {
  const values = new Map<string, string>();
  if (typeof input === 'string') {
    for (const piece of input.split(',')) {
      if (!piece.trim()) continue;
      const at = piece.indexOf('=');
      const name = at < 0 ? '' : piece.slice(0, at).trim();
      if (!name) throw badInput(VALUES_FORMAT, 'invalid_values');
      values.set(name, piece.slice(at + 1).trim());
    }
  } else if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    for (const [key, value] of Object.entries(input)) {
      const name = key.trim();
      if (!name) throw badInput(VALUES_FORMAT, 'invalid_values');
      if (typeof value === 'number' && Number.isFinite(value)) values.set(name, String(value));
      else if (typeof value === 'string') values.set(name, value.trim());
      else throw badInput(VALUE_NOT_TEXT, 'invalid_values');
    }
  } else throw badInput(VALUES_FORMAT, 'invalid_values');
  if (values.size > MAX_VALUES)
    throw badInput(`At most ${MAX_VALUES} values can be given.`, 'invalid_values');
  return Object.fromEntries(values);
}

/**
 * The values the steps need, in field order: every field must have a non-empty value (400 missing_values naming
 * the others). Values for names no step uses are dropped.
 */
export function requireValues(fieldNames: string[], values: Record<string, string>): Record<string, string> {
  const missing = missingValues(fieldNames, values);
  if (missing.length)
    throw badInput(`Every field needs a value. Missing: ${missing.join(', ')}.`, 'missing_values', {
      missing,
    });
  return Object.fromEntries(fieldNames.map((name) => [name, values[name]]));
}
