import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { QueryFailedError } from 'typeorm';
import { badInput, preconditionFailed } from './domain-error';
import { toErrorBody } from './http-exception.filter';

describe('toErrorBody', () => {
  it('keeps a domain error status, code and message', () => {
    expect(
      toErrorBody(preconditionFailed('You already have an account, please login.', 'email_exists')),
    ).toEqual({
      statusCode: 412,
      message: 'You already have an account, please login.',
      error: 'Precondition Failed',
      code: 'email_exists',
    });
  });

  it('adds domain error details as members', () => {
    expect(
      toErrorBody(
        badInput('Name is invalid.', 'validation_failed', {
          errors: [{ field: 'name', message: 'Name is invalid.' }],
        }),
      ).errors,
    ).toHaveLength(1);
  });

  it('joins validation messages into one sentence', () => {
    const body = toErrorBody(new BadRequestException(['a is bad.', 'b is bad.']));
    expect(body).toMatchObject({ statusCode: 400, message: 'a is bad. b is bad.', code: 'bad_input' });
  });

  it('maps framework and database failures caused by input to 4xx', () => {
    expect(toErrorBody(new NotFoundException()).statusCode).toBe(404);
    expect(toErrorBody(new PayloadTooLargeException()).statusCode).toBe(413);
    expect(toErrorBody(new ThrottlerException()).code).toBe('rate_limited');
    const invalidText = Object.assign(new QueryFailedError('select', [], new Error('invalid input syntax')), {
      code: '22P02',
    });
    expect(toErrorBody(invalidText).statusCode).toBe(400);
    expect(toErrorBody({ type: 'entity.parse.failed' }).code).toBe('bad_json');
  });

  it("answers a body the parser refused (unknown charset, bad Content-Encoding) with the parser's 4xx", () => {
    const charset = Object.assign(new Error('unsupported charset "BOGUS"'), {
      status: 415,
      statusCode: 415,
      expose: true,
      type: 'charset.unsupported',
    });
    expect(toErrorBody(charset)).toEqual({
      statusCode: 415,
      message: "The request body's charset or content encoding is not supported.",
      error: 'Unsupported Media Type',
      code: 'unsupported_type',
    });
    const inflate = Object.assign(new Error('incorrect header check'), { status: 400, expose: true });
    expect(toErrorBody(inflate)).toMatchObject({ statusCode: 400, code: 'bad_input' });
    expect(toErrorBody(Object.assign(new Error('x'), { status: 400, expose: false })).statusCode).toBe(500);
  });

  it('hides the details of an unexpected failure', () => {
    expect(toErrorBody(new Error('db password is hunter2'))).toMatchObject({
      statusCode: 500,
      code: 'internal_error',
    });
    expect(toErrorBody(new Error('db password is hunter2')).message).not.toContain('hunter2');
  });
});
