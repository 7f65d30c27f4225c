import { Transform } from 'class-transformer';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { isCalendarDay, isHostName, isMediaSrc, normalizeHost } from '../organization-rules';

export { Trim } from '../../../common/http/validators';

export const TrimLower = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  );

export const NormalizeHost = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeHost(value) : value));

/** A host name; '' is accepted too and means "no domain". */
export function IsHostNameOrEmpty(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHostNameOrEmpty',
      validator: { validate: (v: unknown) => typeof v === 'string' && (v === '' || isHostName(v)) },
    },
    options,
  );
}

/** An uploaded file's src or an http(s) URL; '' is accepted too and means "none". */
export function IsMediaSrcOrEmpty(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMediaSrcOrEmpty',
      validator: { validate: (v: unknown) => typeof v === 'string' && (v === '' || isMediaSrc(v)) },
    },
    options,
  );
}

export function IsCalendarDay(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDay',
      validator: { validate: (v: unknown) => typeof v === 'string' && isCalendarDay(v) },
    },
    options,
  );
}
