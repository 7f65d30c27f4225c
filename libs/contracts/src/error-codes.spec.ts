import { ERROR_CODES, isErrorCode } from './error-codes';

describe('error codes', () => {
  it('are unique snake_case words', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('recognises a known code and nothing else', () => {
    expect(isErrorCode('bad_input')).toBe(true);
    expect(isErrorCode('message_too_long')).toBe(true);
    expect(isErrorCode('no_such_code')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
    expect(isErrorCode(400)).toBe(false);
  });
});
