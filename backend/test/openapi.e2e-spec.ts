import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../src/bootstrap';
import { startTestApp, TestApp } from './harness';

describe('the committed OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('matches the routes in the code (run `npm run openapi` when this fails)', () => {
    const fromCode = JSON.stringify(buildOpenApiDocument(t.app), null, 2) + '\n';
    const committed = readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8');
    expect(committed).toBe(fromCode);
  });

  it('gives every operation a response schema and an id', () => {
    const document = buildOpenApiDocument(t.app);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { operationId?: string; responses?: object }>,
      )) {
        expect(`${method} ${path} ${operation.operationId ?? 'no id'}`).not.toMatch(/no id$/);
        expect(Object.keys(operation.responses ?? {}).length).toBeGreaterThan(0);
      }
    }
  });

  it('declares the 429 of the password lock on every signed-in route that asks for the current password', () => {
    type Operation = {
      security?: unknown[];
      requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
      responses?: Record<string, { description?: string }>;
    };
    const document = buildOpenApiDocument(t.app);
    const schemas = (document.components?.schemas ?? {}) as Record<string, { properties?: object }>;
    const asking: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
        const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref;
        const body = ref ? schemas[ref.split('/').pop() ?? ''] : undefined;
        if (!operation.security?.length || !body?.properties || !('password' in body.properties)) continue;
        asking.push(`${method} ${path}`);
        expect(`${method} ${path}: ${operation.responses?.['429']?.description ?? 'no 429'}`).toContain(
          'login_locked',
        );
      }
    }
    expect(asking).toEqual(
      expect.arrayContaining(['delete /api/users', 'post /api/users/api-key', 'post /api/auth/2fa/disable']),
    );
  });
});
