import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf } from 'class-validator';

/*
 * Property validators shared by the domains' DTOs. Each is one rule with the message that fits the failure, so
 * a bad field gives exactly one sentence.
 */

/**
 * May be left out, but when sent it must pass the rules: unlike IsOptional, null is checked (and refused), for
 * fields whose service reads a missing value as undefined only (null reached `.trim()` or a NOT NULL column).
 */
export const IsOptionalNotNull = () => ValidateIf((_body: object, value: unknown) => value !== undefined);

/** Trims strings; leaves anything else for the validator to refuse. */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** A name: text of 1 to `max` characters once trimmed, with the domain's wording for each failure. */
export function IsNameText(max: number, messages: { required: string; tooLong: string }): PropertyDecorator {
  return ValidateBy({
    name: 'isNameText',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.trim().length >= 1 && v.trim().length <= max,
      defaultMessage: (args) =>
        typeof args?.value === 'string' && args.value.trim().length > max
          ? messages.tooLong
          : messages.required,
    },
  });
}

/** Tags as typed: a comma string or a list of strings (null clears them); the service splits and checks each. */
export function IsTagInput(): PropertyDecorator {
  return ValidateBy({
    name: 'isTagInput',
    validator: {
      validate: (v: unknown) =>
        v === null ||
        typeof v === 'string' ||
        (Array.isArray(v) && v.length <= 100 && v.every((t) => typeof t === 'string')),
      defaultMessage: () => 'Tags must be a comma-separated text or a list of texts.',
    },
  });
}
