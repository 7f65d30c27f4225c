import { IsDate, IsInt, IsOptional } from 'class-validator';
import { Type } from 'class-transformer';
import { MAX_INPUT_DEPTH, createValidationPipe, unreadableInput } from './validation';

class GrantBody {
  @Type(() => Number)
  @IsInt()
  user_id: number;

  @IsOptional()
  @Type(() => Date)
  @IsDate()
  expires_at?: Date;
}

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('unreadableInput', () => {
  it('accepts ordinary text, emoji, RTL marks and shallow data', () => {
    expect(unreadableInput({ name: 'Añá 👩‍👩‍👧 \\u202e', tags: ['a', { b: [1, null] }] })).toBeNull();
    expect(unreadableInput(nested(MAX_INPUT_DEPTH))).toBeNull();
  });

  it('refuses a NUL, a lone surrogate (in a value or a key) and data nested too deep', () => {
    expect(unreadableInput({ a: 'x\u0000y' })).toMatch(/NUL/);
    expect(unreadableInput(['ok', '\ud800'])).toMatch(/invalid Unicode/);
    expect(unreadableInput({ ['k\udfff']: 1 })).toMatch(/field name/);
    expect(unreadableInput(nested(MAX_INPUT_DEPTH + 1))).toMatch(/nested/);
    expect(unreadableInput(nested(100_000))).toMatch(/nested/);
  });

  it('leaves uploaded buffers alone', () => {
    expect(unreadableInput({ buffer: Buffer.from([0, 0xff]) })).toBeNull();
  });
});

describe('the validation pipe', () => {
  const pipe = createValidationPipe();
  const body = { type: 'body' as const, metatype: GrantBody };

  it('answers 400, not a crash, when a transformer meets an object where a number or date belongs', async () => {
    await expect(pipe.transform({ user_id: { toString: 'x' } }, body)).rejects.toMatchObject({ status: 400 });
    await expect(pipe.transform({ user_id: 1, expires_at: { toString: 'x' } }, body)).rejects.toMatchObject({
      status: 400,
    });
  });

  it('refuses unreadable text before validating', async () => {
    await expect(pipe.transform({ user_id: 1, extra: '\u0000' }, body)).rejects.toMatchObject({
      response: {
        code: 'bad_input',
        message: 'Text in the request contains a NUL character or invalid Unicode.',
      },
    });
    await expect(pipe.transform({ user_id: 1 }, body)).resolves.toBeInstanceOf(GrantBody);
  });
});
