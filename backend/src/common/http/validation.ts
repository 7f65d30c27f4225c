import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

function flatten(errors: ValidationError[], parent = ''): { field: string; message: string }[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * Rejects unknown fields and answers 400 with every failed rule in `errors` and the first one as `message`,
 * so the UI can show the spec's wording next to each field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => {
      const list = flatten(errors).map((e) =>
        e.message.startsWith('property ') && e.message.endsWith('should not exist')
          ? { field: e.field, message: `Unknown field "${e.field}".` }
          : e,
      );
      return new BadRequestException({
        message: list[0]?.message ?? 'Invalid request.',
        code: 'validation_failed',
        errors: list,
      });
    },
  });
}
