import { Transform } from 'class-transformer';
import { isEmail, ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import {
  isHttpUrl,
  isImageSrc,
  isValidBirthday,
  isValidPhone,
  normalizeEmail,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_MESSAGES,
} from '../user-fields';

/*
 * One validator per field, so a bad field gives exactly one message (the spec's), not one per broken rule.
 */

function rule(
  name: string,
  test: (value: unknown) => boolean,
  message: string | ((args: ValidationArguments) => string),
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    { name, validator: { validate: test, defaultMessage: () => '' } },
    { message, ...options },
  );
}

/** Required text of 1..max characters after trimming. */
export const IsRequiredText = (message: string, max = 120) =>
  rule('isRequiredText', (v) => typeof v === 'string' && v.trim().length > 0 && v.length <= max, message);

/** `localHosts` also accepts addresses without a top-level domain (admin@localhost) where existing accounts are named. */
export const IsEmailAddress = (
  message: string = USER_MESSAGES.email,
  options: { localHosts?: boolean } = {},
) =>
  rule(
    'isEmailAddress',
    (v) => typeof v === 'string' && v.length <= 254 && isEmail(v, { require_tld: !options.localHosts }),
    message,
  );

export const IsNewPassword = () =>
  rule(
    'isNewPassword',
    (v) => typeof v === 'string' && v.length >= PASSWORD_MIN_LENGTH && v.length <= PASSWORD_MAX_LENGTH,
    (args) =>
      typeof args.value === 'string' && args.value.length > PASSWORD_MAX_LENGTH
        ? `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.`
        : USER_MESSAGES.password,
  );

export const IsPhone = () => rule('isPhone', isValidPhone, USER_MESSAGES.phone);

export const IsBirthday = () =>
  rule('isBirthday', (v) => isValidBirthday(v), 'Birthday must be a real date written YYYY-MM-DD.');

export const IsHttpUrl = (message: string) => rule('isHttpUrl', isHttpUrl, message);

export const IsImageSrc = (message: string) => rule('isImageSrc', isImageSrc, message);

export const IsText = (message: string, max: number) =>
  rule('isText', (v) => typeof v === 'string' && v.length <= max, message);

export { Trim } from '../../../common/http/validators';

/** Trims and turns '' into null, for optional fields the user may clear. */
export const TrimToNull = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  });

export const NormalizeEmail = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeEmail(value) : value));
