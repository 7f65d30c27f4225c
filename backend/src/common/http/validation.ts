import {
  ArgumentMetadata,
  BadRequestException,
  HttpException,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';

/** Deepest nesting accepted in a body or query: our DTOs need 4; class-transformer recurses once per level. */
export const MAX_INPUT_DEPTH = 32;

/** Text PostgreSQL and the validators can take: no NUL (text cannot hold it), no lone surrogate (not Unicode). */
const storable = (text: string): boolean =>
  !text.includes('\u0000') && (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Why the input cannot be handled as text and data, or null. Walks iteratively (a deep body would overflow a
 * recursive walk) over plain objects and arrays only (uploaded files and class instances are not input text).
 */
export function unreadableInput(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (!storable(item)) return 'Text in the request contains a NUL character or invalid Unicode.';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    const proto = Object.getPrototypeOf(item) as unknown;
    if (!Array.isArray(item) && proto !== Object.prototype && proto !== null) continue;
    if (depth >= MAX_INPUT_DEPTH) return `The request is nested more than ${MAX_INPUT_DEPTH} levels deep.`;
    for (const [key, child] of Object.entries(item)) {
      if (!storable(key)) return 'A field name in the request contains a NUL character or invalid Unicode.';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

/**
 * Refuses unreadable input (see unreadableInput) with a 400 before class-transformer and the validators see it,
 * and answers 400 when they throw on a value of an unexpected shape: the pipe only ever reads the caller's input.
 */
class InputValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const problem = unreadableInput(value);
      if (problem) throw new BadRequestException({ message: problem, code: 'bad_input' });
    }
    try {
      return await super.transform(value, metadata);
    } catch (err) {
      if (err instanceof HttpException) throw err;
      // A transformer that chokes on a shape it does not expect (`new Date({})`, `Number({ toString: 'x' })`).
      throw new BadRequestException({
        message: 'A value in the request has the wrong type.',
        code: 'bad_input',
      });
    }
  }
}

function flatten(errors: ValidationError[], parent = ''): { field: string; message: string }[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * Rejects unknown fields and answers 400 with every failed rule in `errors` and the first one as `message`,
 * so the UI can show the spec's wording next to each field. Text with a NUL or a lone surrogate and input nested
 * deeper than MAX_INPUT_DEPTH are refused first (they made the database or the transformer fail with a 500).
 */
export function createValidationPipe(): ValidationPipe {
  return new InputValidationPipe({
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
