import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from 'openai';
import { DomainError } from '../../common/errors/domain-error';
import { toErrorBody } from '../../common/errors/http-exception.filter';
import {
  AI_UNAVAILABLE_MESSAGE,
  aiCancelled,
  aiNotConfigured,
  isAiCancelled,
  redactSecrets,
  socketErrorMessage,
  toAiError,
} from './ai.errors';

const headers = new Headers();
const providerBody = (message: string, code: string | null = null) => ({
  message,
  type: 'invalid_request_error',
  code,
});

describe('toAiError', () => {
  it("turns a provider 401 into 400 'Open AI Error: {message}' without the status prefix", () => {
    const err = new AuthenticationError(
      401,
      providerBody('Incorrect API key provided.', 'invalid_api_key'),
      undefined,
      headers,
    );
    const mapped = toAiError(err);
    expect(mapped).toBeInstanceOf(DomainError);
    expect(mapped).toMatchObject({
      status: 400,
      code: 'openai_error',
      message: 'Open AI Error: Incorrect API key provided.',
    });
  });

  it('turns an unknown model (404) and a quota error (429) into openai_error', () => {
    const notFound = new NotFoundError(404, providerBody('The model `x` does not exist'), undefined, headers);
    expect(toAiError(notFound).message).toBe('Open AI Error: The model `x` does not exist');
    const quota = new RateLimitError(
      429,
      providerBody('You exceeded your current quota', 'insufficient_quota'),
      undefined,
      headers,
    );
    expect(toAiError(quota).code).toBe('openai_error');
  });

  it('uses the SDK message when the provider sent no body', () => {
    const err = APIError.generate(403, undefined, undefined, headers);
    expect(toAiError(err).message).toBe('Open AI Error: status code (no body)');
  });

  it('treats an error event with a code inside the stream as the provider speaking', () => {
    const err = new APIError(
      undefined,
      { message: 'context_length_exceeded here', code: 'context_length_exceeded' },
      undefined,
      undefined,
    );
    expect(toAiError(err)).toMatchObject({
      code: 'openai_error',
      message: 'Open AI Error: context_length_exceeded here',
    });
  });

  it.each([
    [
      'a provider 500',
      new InternalServerError(500, providerBody('The server had an error'), undefined, headers),
    ],
    ['a provider 503', new InternalServerError(503, providerBody('Overloaded'), undefined, headers)],
    ['an unreachable host', new APIConnectionError({ message: 'Connection error.' })],
    ['a connect timeout', new APIConnectionTimeoutError()],
    ['an abort the caller did not ask for', new APIUserAbortError()],
    ['a dropped connection', new TypeError('terminated')],
    ['a code-less error event', new APIError(undefined, { message: 'oops' }, undefined, undefined)],
    ['anything else', 'weird'],
  ])('turns %s into 503 with the spec message', (_what, err) => {
    expect(toAiError(err)).toMatchObject({
      status: 503,
      code: 'ai_unavailable',
      message: AI_UNAVAILABLE_MESSAGE,
    });
  });

  it('keeps our own AI errors as they are', () => {
    const err = aiNotConfigured();
    expect(toAiError(err)).toBe(err);
  });

  it('answers HTTP 503 "Service Unavailable" for ai_unavailable and 409 for ai_not_configured', () => {
    expect(toErrorBody(toAiError(new TypeError('terminated')))).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'ai_unavailable',
      message: AI_UNAVAILABLE_MESSAGE,
    });
    expect(toErrorBody(aiNotConfigured())).toMatchObject({ statusCode: 409, code: 'ai_not_configured' });
  });
});

describe('socketErrorMessage', () => {
  it("words provider errors as 'OpenAi Error: {message}'", () => {
    const err = new AuthenticationError(401, providerBody('Incorrect API key provided.'), undefined, headers);
    expect(socketErrorMessage(err)).toBe('OpenAi Error: Incorrect API key provided.');
    expect(socketErrorMessage(toAiError(err))).toBe('OpenAi Error: Incorrect API key provided.');
  });

  it('gives the generic text for service failures', () => {
    expect(socketErrorMessage(new InternalServerError(500, undefined, undefined, headers))).toBe(
      AI_UNAVAILABLE_MESSAGE,
    );
  });
});

describe('isAiCancelled', () => {
  it('recognises only a cancellation', () => {
    expect(isAiCancelled(aiCancelled())).toBe(true);
    expect(isAiCancelled(aiNotConfigured())).toBe(false);
    expect(isAiCancelled(new Error('x'))).toBe(false);
  });
});

describe('redactSecrets', () => {
  const orgKey = 'sk-proj-Zq81mB77xYtQe4LwpR0aaKc93DfGhJ2u';

  it('removes a provider-quoted key, its masked form and pieces of a known key', () => {
    const err = new AuthenticationError(
      401,
      providerBody(
        `Incorrect API key provided: sk-proj-Zq81********************J2u. Also tried ${orgKey.slice(-12)}.`,
      ),
      undefined,
      headers,
    );
    const mapped = toAiError(err, [orgKey]);
    expect(mapped.message).toContain('Incorrect API key provided: [redacted]');
    expect(mapped.message).not.toMatch(/Zq81|J2u|h?J2u|DfGhJ2u/);
    expect(socketErrorMessage(mapped)).not.toContain('Zq81');
  });

  it('removes xAI keys, long tokens and the exact configured key even when it looks like a word', () => {
    const plain = 'correcthorsebatterystaple';
    const text = `bad key xai-AbCdEf123456 token ${'a1B2'.repeat(10)} and ${plain} here`;
    const out = redactSecrets(text, [plain]);
    expect(out).toBe('bad key [redacted] token [redacted] and [redacted] here');
  });

  it('keeps ordinary provider sentences as they are', () => {
    const text = 'The model `gpt-4o-mini` does not exist or you do not have access to it.';
    expect(redactSecrets(text, ['sk-unrelated-key-0123456789'])).toBe(text);
  });

  it('stays fast on hostile input', () => {
    const hostile = `${'*'.repeat(50_000)}${'a-'.repeat(50_000)}${'x'.repeat(31)} `.repeat(4);
    const started = Date.now();
    redactSecrets(hostile, ['sk-known-key-0123456789abcdef']);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
