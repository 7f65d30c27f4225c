import { writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildOpenApiDocument } from '../src/bootstrap';
import { WordsService } from '../src/modules/words/words.service';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { startTestApp, TestApp, TestUser } from './harness';

/**
 * Generated bad input over every route of the OpenAPI document: bodies and queries built from each operation's
 * schema, then broken (wrong types, missing and extra fields, huge strings, unicode edge cases, extreme numbers,
 * arrays for objects, deep nesting, malformed JSON, wrong content types, huge queries, bad path ids). Every answer
 * must be below 500, every 4xx must carry a `message`, and the app must still answer afterwards.
 * Reproduce a failure with `FUZZ_SEED=<seed printed at the end>`.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/** In all: the known cases and the field sweep, then generated requests up to this count. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_500);

/**
 * Answers about the payment provider, not about the request: payments not configured (503) and the provider
 * refusing or not answering (502: the fuzz stores random organization keys, which Stripe refuses). Each carries
 * its code and a sentence; any other answer of 500 or more is a failure.
 */
const UPSTREAM_STATES: Record<number, string> = {
  502: 'payment_provider_error',
  503: 'payments_not_configured',
};

function isUpstreamState(res: { status: number; text: string }): boolean {
  const code = UPSTREAM_STATES[res.status];
  if (!code) return false;
  try {
    const body = JSON.parse(res.text) as { code?: unknown; message?: unknown };
    return body.code === code && typeof body.message === 'string' && body.message.length > 0;
  } catch {
    return false;
  }
}
const CONCURRENCY = 8;
const MB = 1024 * 1024;

/** mulberry32: small, fast and seedable. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
  };
}

interface Schema {
  type?: string;
  $ref?: string;
  enum?: unknown[];
  format?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
}
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  json?: Schema;
  multipart?: Schema;
}

const deep = (depth: number, leaf: string, open: string, close: string) =>
  open.repeat(depth) + leaf + close.repeat(depth);

/** Strings that have broken parsers, validators, databases and renderers before. */
const BAD_STRINGS: (() => string)[] = [
  () => '',
  () => ' ',
  () => '\u0000',
  () => 'a\u0000b',
  () => '\ud800',
  () => '\udfff',
  () => 'x\ud83d',
  () => '\u202eevil\u202c',
  () => '\u200f\u05e9\u05dc\u05d5\u05dd',
  () => '👩‍👩‍👧‍👦🇲🇽💩',
  () => 'e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301',
  () => '\ufeff{}',
  () => '\r\n\t\v\f',
  () => 'NaN',
  () => 'Infinity',
  () => '-Infinity',
  () => '1e400',
  () => '-0',
  () => '0x1F',
  () => '9'.repeat(40),
  () => '-9999999999',
  () => '2147483648',
  () => '1.5',
  () => ' 12 ',
  () => 'null',
  () => 'undefined',
  () => 'true',
  () => '[object Object]',
  () => '__proto__',
  () => 'constructor',
  () => "'; DROP TABLE users; --",
  () => '%',
  () => '%00',
  () => '%%%25',
  () => '_%\\',
  () => '(a+)+$',
  () => '[[[[[[[[[[',
  () => '[topic',
  () => '[' + 'a'.repeat(300) + '[b/c/]]',
  () => '../../etc/passwd',
  () => '<script>alert(1)</script>',
  () => '![x](https://evil.example/x.png)',
  () => '0000-00-00',
  () => '2025-02-30',
  () => '9999-12-31T99:99:99Z',
  () => 'a@b',
  () => 'a@' + 'b'.repeat(300) + '.com',
  () => 'ß'.repeat(300),
  () => 'x'.repeat(256),
  () => 'x'.repeat(70_000),
  () => '\u{10ffff}'.repeat(1000),
];

const BAD_NUMBERS = [
  -1,
  0,
  -0,
  1.5,
  -2147483649,
  2147483647,
  2147483648,
  2 ** 53 + 2,
  1e21,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
];

const BAD_PATH_IDS = [
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '2147483648',
  '99999999999999999999',
  'NaN',
  '%00',
  '%F0%9F%92%A9',
  '%ED%A0%80',
  '%ZZ',
  ' 1',
  '0x10',
  'null',
  '1;DROP',
  encodeURIComponent('../'),
  'x'.repeat(5000),
];

/** Raw bodies sent as application/json that are not valid JSON (or not what a JSON body should be). */
const MALFORMED: (() => Buffer | string)[] = [
  () => '{"a":',
  () => '{a:1}',
  () => "{'a':1}",
  () => '{"a":1}}',
  () => '[',
  () => '',
  () => 'null',
  () => '"just a string"',
  () => '12',
  () => 'true',
  () => '{"a":01}',
  () => '{"a":NaN}',
  () => '{"a":Infinity}',
  () => '{"a":"\\ud800"}',
  () => '{"a":"\\u0000"}',
  () => '{"__proto__":{"isAdmin":true}}',
  () => '{"constructor":{"prototype":{"polluted":1}}}',
  () => Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  () => '\ufeff{}',
  () => '1'.repeat(100_000),
  () => deep(5_000, '1', '[', ']'),
  () => deep(5_000, '1', '{"a":', '}'),
  () => deep(200, '{}', '{"a":', '}'),
  () => '[' + '1,'.repeat(200_000) + '1]',
  () => '{"a":"' + 'z'.repeat(3 * MB) + '"}',
];

const WRONG_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/octet-stream',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/vnd.api+json',
  'image/png',
  '',
];

/** Percent-encodes, sending a lone surrogate as the bytes of its (invalid) UTF-8 form. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

/** Routes only staff may call: the fuzz calls them as a staff admin so validation is reached. */
const STAFF_ONLY: [string, RegExp][] = [
  ['*', /^\/api\/(appconfig\/admin|staff|words\/admin|templates\/all|organizations\/admin|audit-events)/],
  ['POST', /^\/api\/auth\/2fa\//],
  ['*', /^\/api\/users\/(email|phone|sendResetPasswordLink|resetPasswordLink)$/],
  ['PUT', /^\/api\/appconfig$/],
  ['POST', /^\/api\/organizations$/],
  ['POST', /^\/api\/workflows$/],
  ['PUT', /^\/api\/workflows$/],
  ['DELETE', /^\/api\/workflows\//],
];

/** Routes that end the caller's account or every session of it. */
const ENDS_CALLER = new Set(['DELETE /api/users', 'POST /api/auth/logout-all']);

describe('bad input over every route', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let staffAdmin: TestUser;
  let customer: TestUser;
  let ids: Record<string, number | string>;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1` });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    agent.destroy();
    await t?.close();
    await fake?.close();
  });

  interface Raw {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
  }
  interface Answer {
    status: number;
    text: string;
    type: string;
  }

  function call(req: Raw, keepAlive = true): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const body = req.body === undefined ? undefined : Buffer.from(req.body as string);
      const r = httpRequest(
        `${base}${req.path}`,
        {
          method: req.method,
          agent: keepAlive ? agent : false,
          headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...req.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              type: String(res.headers['content-type'] ?? ''),
            }),
          );
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.setTimeout(60_000, () => r.destroy(new Error('timed out')));
      r.end(body);
    });
  }

  const json = (method: string, path: string, who: TestUser | null, body?: unknown): Raw => ({
    method,
    path,
    headers: {
      ...(who ? { authorization: who.auth } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  async function must<T>(
    req: Raw,
    status: number,
    pick: (b: ReturnType<typeof JSON.parse>) => T,
  ): Promise<T> {
    const res = await call(req);
    if (res.status !== status)
      throw new Error(`fixture ${req.method} ${req.path}: ${res.status} ${res.text}`);
    return pick(JSON.parse(res.text));
  }

  /** Real resources, so valid-looking requests reach the services (deletes aim at ids that do not exist). */
  async function fixtures(): Promise<void> {
    staffAdmin = await t.createUser({ staff: 'admin' });
    customer = await t.createUser();
    await t.db.query(`UPDATE users SET phone = '5550002222' WHERE user_id = $1`, [customer.user_id]);
    await t.app.get(WordsService).grant(customer.user_id, { unlimited: true, source: 'gift' });
    const org = await t.createOrganization('Fuzz Org');
    await t.addMember(org, customer.user_id, 1);
    const as = customer;
    const conversation = await must(json('POST', '/api/conversations', as, { name: 'c' }), 201, (b) =>
      Number(b.conversation.conversation_id),
    );
    const [{ message_id }] = await t.db.query(
      `INSERT INTO messages (conversation_id, user_id, role, content) VALUES ($1, $2, 'user', 'Hi') RETURNING message_id`,
      [conversation, customer.user_id],
    );
    const template = await must(
      json('POST', '/api/templates', staffAdmin, {
        name: 'T',
        description: 'D',
        content: 'Write about [topic].',
        public: true,
      }),
      201,
      (b) => Number(b.template.template_id),
    );
    const workflow = await must(
      json('POST', '/api/workflows', staffAdmin, { name: 'W', template_ids: [template] }),
      201,
      (b) => Number(b.workflow.workflow_id),
    );
    const userWorkflow = await must(
      json('POST', '/api/user_workflows', as, { workflow_id: workflow, values: { topic: 'x' } }),
      201,
      (b) => b.user_workflow,
    );
    const file = await must(
      json('POST', '/api/files', as, { name: 'f.txt', content: 'x' }),
      201,
      (b) => b.file,
    );
    const [{ user_organization_id }] = await t.db.query(
      `SELECT user_organization_id FROM user_organizations WHERE user_id = $1`,
      [customer.user_id],
    );
    const [{ staff_id }] = await t.db.query(`SELECT staff_id FROM staff WHERE user_id = $1`, [
      staffAdmin.user_id,
    ]);
    ids = {
      organization_id: org,
      conversation_id: conversation,
      message_id,
      template_id: template,
      workflow_id: workflow,
      user_workflow_id: Number(userWorkflow.user_workflow_id),
      step_conversation_id: Number(userWorkflow.user_workflow_templates[0].conversation_id),
      document_id: await must(json('POST', '/api/documents', as, { name: 'd' }), 201, (b) =>
        Number(b.document.document_id),
      ),
      file_id: Number(file.file_id),
      storage_key: String(file.src).split('/').pop()!,
      user_organization_id,
      staff_id,
      user_id: customer.user_id,
    };
  }

  function operations(): Operation[] {
    const document = buildOpenApiDocument(t.app) as unknown as {
      paths: Record<
        string,
        Record<
          string,
          { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
        >
      >;
    };
    const ops: Operation[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const content = op.requestBody?.content ?? {};
        ops.push({
          method: method.toUpperCase(),
          path,
          parameters: op.parameters ?? [],
          json: content['application/json']?.schema,
          multipart: content['multipart/form-data']?.schema,
        });
      }
    }
    return ops;
  }

  it('answers every generated bad request below 500 with a message, and keeps running', async () => {
    await fixtures();
    const document = buildOpenApiDocument(t.app) as unknown as {
      components: { schemas: Record<string, Schema> };
    };
    const resolve = (s: Schema | undefined): Schema => {
      let schema = s ?? {};
      while (schema.$ref) schema = document.components.schemas[schema.$ref.split('/').pop()!];
      if (schema.allOf?.length === 1) return resolve(schema.allOf[0]);
      return schema;
    };
    const rng = prng(SEED);
    const ops = operations();

    /** A plausible value for a field, from its name and schema (ids point at the fixtures). */
    function valid(name: string, s: Schema | undefined, depth = 0): unknown {
      const schema = resolve(s);
      if (name in ids && name !== 'storage_key') return ids[name];
      if (name === 'email') return rng.chance(0.5) ? customer.email : `fuzz${rng.int(1e9)}@example.com`;
      if (name.includes('password')) return 'secret123';
      if (name === 'phone') return '5550002222';
      if (name === 'values') return { topic: 'x' };
      if (schema.enum?.length) return rng.pick(schema.enum);
      if (schema.oneOf?.length) return valid(name, rng.pick(schema.oneOf), depth);
      switch (schema.type) {
        case 'number':
        case 'integer':
          return schema.minimum ?? 1;
        case 'boolean':
          return rng.chance(0.5);
        case 'array':
          return depth > 3 ? [] : [valid(name, schema.items, depth + 1)];
        case 'object':
          return depth > 3 ? {} : validObject(schema, depth + 1);
        default:
          if (name.endsWith('_date') || name === 'birthday' || name === 'expires_at') return '2030-01-31';
          if (name.includes('url') || name === 'thumbnail' || name === 'welcome_video')
            return 'https://example.com/x';
          return 'text';
      }
    }
    function validObject(schema: Schema, depth = 0): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || rng.chance(0.5)) out[key] = valid(key, prop, depth);
      }
      return out;
    }

    /** Any bad value: of another type, extreme, or odd text. */
    function bad(): unknown {
      // 1 MB of text costs the server far more than the rest: a few hundred of them are enough.
      if (rng.chance(0.005)) return rng.chance(0.5) ? 'y'.repeat(MB) : '👍'.repeat(MB / 4);
      switch (rng.int(9)) {
        case 0:
        case 1:
        case 2:
          return rng.pick(BAD_STRINGS)();
        case 3:
          return rng.pick(BAD_NUMBERS);
        case 4:
          return rng.pick([null, true, false]);
        case 5:
          return rng.pick([[], [1, 2], ['a'], [[[]]], [{}], new Array(1_000).fill(7), [null]]);
        case 6:
          return rng.pick<object>([{}, { a: 1 }, { toString: 'x' }, { $gt: '' }, { length: 5 }]);
        case 7:
          return JSON.parse(deep(rng.pick([10, 500, 3_000]), '1', '{"a":', '}'));
        default:
          return rng.pick(['1', '0', '-1', 'x'.repeat(300), '2147483648']);
      }
    }

    function mutateObject(obj: Record<string, unknown>, schema: Schema): unknown {
      const keys = Object.keys(schema.properties ?? {});
      const times = 1 + rng.int(3);
      for (let i = 0; i < times; i++) {
        const kind = rng.int(10);
        if (kind <= 4 && keys.length) obj[rng.pick(keys)] = bad();
        else if (kind === 5 && schema.required?.length) delete obj[rng.pick(schema.required)];
        else if (kind === 6) obj[rng.pick(['extra', 'isAdmin', 'user_id', 'role', '__proto__', ''])] = bad();
        else if (kind === 7 && keys.length) delete obj[rng.pick(keys)];
        else if (kind === 8) return bad();
        else if (keys.length) {
          // An object or an array where a scalar is expected, or the reverse.
          const key = rng.pick(keys);
          obj[key] = rng.chance(0.5) ? { value: obj[key] } : [obj[key]];
        }
      }
      return obj;
    }

    function queryString(op: Operation, mutate: boolean): string {
      const parts: string[] = [];
      const add = (k: string, v: unknown) => parts.push(`${encode(k)}=${encode(String(v))}`);
      for (const p of op.parameters.filter((x) => x.in === 'query')) {
        const include = p.required || rng.chance(0.4);
        if (!include && !(mutate && rng.chance(0.3))) continue;
        if (p.name === 'organization_id') {
          if (mutate && rng.chance(0.3)) add(p.name, rng.pick(BAD_PATH_IDS));
          else if (rng.chance(0.5)) add(p.name, ids.organization_id);
          continue;
        }
        const value = mutate && rng.chance(0.6) ? bad() : valid(p.name, p.schema);
        if (Array.isArray(value)) for (const v of value.slice(0, 3)) add(p.name, v);
        else if (value && typeof value === 'object') add(`${p.name}[a]`, 'b');
        else add(p.name, typeof value === 'string' && value.length > 20_000 ? value.slice(0, 8_000) : value);
      }
      if (mutate && rng.chance(0.15)) add(rng.pick(['extra', 'isAdmin', '__proto__[x]', 'a[b][c]']), 'y');
      if (mutate && rng.chance(0.05)) add('query', 'q'.repeat(rng.pick([10_000, 20_000])));
      if (mutate && rng.chance(0.03)) parts.push('%E0%A4%A', '%ZZ=1', '&&&=');
      return parts.length ? `?${parts.join('&')}` : '';
    }

    function pathFor(op: Operation, mutate: boolean): string {
      const destructive = op.method === 'DELETE';
      return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        if (mutate && rng.chance(0.5)) return rng.pick(BAD_PATH_IDS);
        if (name === 'storage_key') return String(ids.storage_key);
        if (name === 'tag' || name === 'type')
          return encode(String(rng.pick(BAD_STRINGS)()).slice(0, 300)) || 'x';
        if (name === 'page') return String(rng.pick([1, 2, 0, -1, 1e6]));
        // Deletes aim at ids that do not exist, so fixtures survive; the rest at the real ones.
        if (destructive) return '987654';
        if (name === 'id')
          return String(
            op.path.includes('user-organizations')
              ? ids.user_organization_id
              : op.path.includes('files')
                ? ids.file_id
                : ids.organization_id,
          );
        if (name === 'conversation_id' && op.path.includes('regenerate'))
          return String(ids.step_conversation_id);
        return String(ids[name] ?? 1);
      });
    }

    function multipartBody(): { type: string; body: Buffer } {
      const boundary = `fuzz${rng.int(1e9)}`;
      const parts: Buffer[] = [];
      const count = 1 + rng.int(3);
      for (let i = 0; i < count; i++) {
        const field = rng.pick(['file', 'file', 'name', 'content', 'other', 'file[]', '']);
        const filename = rng.pick([
          'a.txt',
          'a.png',
          '',
          '../../x.txt',
          '\u202etxt.exe',
          'x'.repeat(1000),
          'a.docx',
        ]);
        const data = rng.pick([
          'hello',
          '',
          '\u0000\u0001\u0002',
          '%PDF-1.4 broken',
          'PK\u0003\u0004broken zip',
          '\u0089PNG\r\n\u001a\nbroken',
          ' \t'.repeat(50_000),
        ]);
        const asFile = field.startsWith('file') || rng.chance(0.2);
        parts.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${field}"` +
              (asFile
                ? `; filename="${filename}"\r\nContent-Type: ${rng.pick(['text/plain', 'image/png', 'application/octet-stream'])}`
                : '') +
              `\r\n\r\n${data}\r\n`,
          ),
        );
      }
      parts.push(Buffer.from(rng.chance(0.9) ? `--${boundary}--\r\n` : `--${boundary}`));
      return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
    }

    /** One generated request for an operation. */
    function generate(op: Operation): Raw {
      const staffRoute = STAFF_ONLY.some(
        ([method, re]) => (method === '*' || method === op.method) && re.test(op.path),
      );
      const who = rng.chance(0.03) ? null : staffRoute || rng.chance(0.3) ? staffAdmin : customer;
      const headers: Record<string, string> = who ? { authorization: who.auth } : {};
      // The staff admin is no member of the fixture organization: confirming it lets their calls reach validation.
      if (who === staffAdmin && rng.chance(0.8))
        headers['x-staff-scope-confirm'] = String(ids.organization_id);
      if (rng.chance(0.02))
        headers.authorization = rng.pick([
          'Bearer ',
          'Bearer x.y.z',
          'Bearer as_nope',
          'Basic Zm9v',
          'Bearer ' + 'a'.repeat(4000),
        ]);
      const mutateQuery = !op.json && !op.multipart ? true : rng.chance(0.3);
      const path = pathFor(op, rng.chance(0.25)) + queryString(op, mutateQuery);
      const req: Raw = { method: op.method, path, headers };
      const schema = resolve(op.json);
      if (op.multipart && (!op.json || rng.chance(0.5))) {
        const { type, body } = multipartBody();
        headers['content-type'] = type;
        req.body = body;
        return req;
      }
      if (!op.json && op.method === 'GET') return req;
      const style = rng.int(20);
      if (style === 0) {
        headers['content-type'] = 'application/json';
        req.body = rng.pick(MALFORMED)();
      } else if (style === 1) {
        const type = rng.pick(WRONG_TYPES);
        if (type) headers['content-type'] = type;
        req.body = rng.pick([JSON.stringify(validObject(schema)), 'a=1&b=2', '<x/>', '\u0000\u0001', '']);
      } else if (style === 2) {
        // A Content-Encoding the body does not have, or one nobody knows.
        headers['content-type'] = 'application/json';
        headers['content-encoding'] = rng.pick(['gzip', 'deflate', 'br', 'bogus']);
        req.body = JSON.stringify(validObject(schema));
      } else {
        headers['content-type'] = 'application/json';
        const body = op.json ? validObject(schema) : {};
        req.body = JSON.stringify(mutateObject(body, schema));
      }
      return req;
    }

    // Requests that once answered 500 run first, whatever the seed.
    const admin = { authorization: staffAdmin.auth, 'content-type': 'application/json' };
    const regressions: Raw[] = [
      { method: 'POST', path: '/api/staff', headers: admin, body: '{"email":"\\udfff"}' },
      { method: 'GET', path: '/api/organizations/lookup?slug=a%00b' },
      { method: 'POST', path: '/api/messages', headers: admin, body: deep(200, '{}', '{"a":', '}') },
      { method: 'POST', path: '/api/auth/signup', headers: admin, body: deep(3_000, '1', '[', ']') },
      {
        method: 'POST',
        path: '/api/words/admin/grant',
        headers: admin,
        body: '{"user_id":{"toString":"x"}}',
      },
      {
        method: 'POST',
        path: '/api/words/admin/grant',
        headers: admin,
        body: '{"user_id":1,"words":5,"expires_at":{"toString":"x"}}',
      },
      {
        method: 'POST',
        path: '/api/templates',
        headers: admin,
        body: '{"name":"n","description":"d","content":"c","fields":[[[]]]}',
      },
      { method: 'PUT', path: '/api/appconfig', headers: admin, body: '{"config":[[{"key":"app_name"}]]}' },
      {
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json; charset=bogus' },
        body: '{}',
      },
      {
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: '{}',
      },
      { method: 'GET', path: `/api/templates?query=${'q'.repeat(20_000)}`, headers: admin },
      { method: 'GET', path: '/api/templates?page=1e21', headers: admin },
      {
        method: 'POST',
        path: '/api/staff',
        headers: admin,
        body: JSON.stringify({ email: customer.email, role: null }),
      },
    ];

    // Then every field of every JSON body, one at a time, set to each of a few values of the wrong kind.
    const SWEEP: unknown[] = [null, {}, [[]], -1, 2 ** 31, '\u202e'];
    for (const op of ops) {
      if (!op.json || op.method === 'DELETE') continue;
      const schema = resolve(op.json);
      for (const key of Object.keys(schema.properties ?? {})) {
        for (const value of SWEEP) {
          const who = STAFF_ONLY.some(([m, re]) => (m === '*' || m === op.method) && re.test(op.path))
            ? staffAdmin
            : customer;
          regressions.push({
            method: op.method,
            path: pathFor(op, false),
            headers: { authorization: who.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ ...validObject(schema), [key]: value }),
          });
        }
      }
    }

    // Requests are spread over the routes evenly, in a seeded order.
    const plan: Operation[] = [];
    const randomCount = Math.max(0, REQUESTS - regressions.length);
    while (plan.length < randomCount) plan.push(...ops);
    plan.length = randomCount;
    for (let i = plan.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [plan[i], plan[j]] = [plan[j], plan[i]];
    }

    const failures: string[] = [];
    const spent = new Map<string, number>();
    let sent = 0;
    let serverErrors = 0;
    let next = 0;
    const describeReq = (req: Raw) =>
      `${req.method} ${req.path.slice(0, 200)} [${req.headers?.['content-type'] ?? '-'}] ${String(req.body ?? '').slice(0, 200)}`;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < plan.length + regressions.length) {
          const index = next++;
          const op = plan[index - regressions.length] ?? ops[0];
          // Deleting the caller's account or signing them out everywhere would turn every later request of theirs
          // into a 401 that never reaches validation: those routes get a new account each time.
          const req = index < regressions.length ? regressions[index] : generate(op);
          if (ENDS_CALLER.has(`${op.method} ${op.path}`) && req.headers?.authorization)
            req.headers.authorization = (await t.createUser()).auth;
          let res: Answer;
          const started = Date.now();
          try {
            res = await call(req).catch((err: NodeJS.ErrnoException) => {
              // The server may close a kept-alive connection after refusing a body it did not read; the agent
              // can hand that socket to the next request. Once more on a new connection tells that from a crash.
              if (err.code !== 'ECONNRESET' && err.message !== 'socket hang up') throw err;
              return call({ ...req, headers: { ...req.headers, connection: 'close' } }, false);
            });
          } catch (err) {
            failures.push(`${describeReq(req)} -> no answer: ${(err as Error).message}`);
            continue;
          } finally {
            sent++;
            const key = `${op.method} ${op.path}`;
            spent.set(key, (spent.get(key) ?? 0) + Date.now() - started);
          }
          if (res.status >= 500 && !isUpstreamState(res)) {
            serverErrors++;
            failures.push(`${describeReq(req)} -> ${res.status} ${res.text.slice(0, 200)}`);
          } else if (res.status >= 400) {
            let message: unknown;
            try {
              message = (JSON.parse(res.text) as { message?: unknown }).message;
            } catch {
              message = undefined;
            }
            if (typeof message !== 'string' || !message)
              failures.push(
                `${describeReq(req)} -> ${res.status} without a message: ${res.text.slice(0, 200)}`,
              );
          }
        }
      }),
    );

    const live = await call({ method: 'GET', path: '/api/health/live' });
    // Both callers were still signed in at the end, so their requests reached validation all along.
    const stillSignedIn = await Promise.all(
      [customer, staffAdmin].map(async (who) => (await call(json('GET', '/api/users', who))).status),
    );
    console.log(
      `Bad input: ${sent} requests over ${ops.length} routes (${regressions.length} known cases and field sweep, seed ${SEED}), ` +
        `${serverErrors} answered 5xx, ` +
        `${failures.length} failures; /api/health/live answered ${live.status} after`,
    );
    if (process.env.FUZZ_PROFILE)
      console.log(
        [...spent]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15)
          .map(([k, ms]) => `${ms} ms ${k}`)
          .join('\n'),
      );
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, failures.join('\n'));
    expect(failures.slice(0, 40)).toEqual([]);
    expect(live.status).toBe(200);
    expect(stillSignedIn).toEqual([200, 200]);
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(serverErrors).toBe(0);
  }, 600_000);
});
