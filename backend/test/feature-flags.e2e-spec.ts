import {
  FEATURES,
  featureDisabledMessage,
  type FeatureDeclaration,
  type FeatureFlag,
  pathUnder,
} from '@avatar-studio/contracts';
import type { Response } from 'supertest';
import { buildOpenApiDocument } from '../src/bootstrap';
import { RealtimeService } from '../src/modules/realtime/realtime.service';
import { startTestApp, TestApp, TestUser } from './harness';
import { userSocket } from './sockets';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
/** An id nothing has, so a call that reaches its route changes nothing. */
const NO_SUCH_ID = '999999';

/**
 * Walks the declaration of every feature flag (libs/contracts/src/feature-flags.ts): switched off, every route
 * of the OpenAPI document under the feature's prefixes, and each prefix itself (a route not built yet), answers
 * 404 feature_disabled for anyone; switched on, none does, and the feature's data is there again.
 */
describe('feature flags', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let orgAdmin: TestUser;
  let org: number;
  let documented: { method: string; path: string }[];
  const kept: Partial<
    Record<FeatureFlag, { path: string; who: () => TestUser; check(res: Response): void }>
  > = {};

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0);
    admin = await t.createUser({ staff: 'admin' });
    customer = await t.createUser({ words: 1000 });
    orgAdmin = await t.createUser({ words: 1000 });
    org = await t.createOrganization('Flagged Org');
    await t.addMember(org, orgAdmin.user_id, 1);
    documented = Object.entries(buildOpenApiDocument(t.app).paths).flatMap(([path, item]) =>
      METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((method) => ({ method, path })),
    );

    // Data of the features that exist, read back after a feature was off and on again.
    const template = await t
      .http()
      .post('/api/templates')
      .set('Authorization', customer.auth)
      .send({ name: 'Kept', description: 'Kept', content: 'About [topic].' })
      .expect(201);
    const templateId = template.body.template.template_id as number;
    kept.templates_enabled = {
      path: `/api/templates/${templateId}`,
      who: () => customer,
      check: (res) => expect(res.body.template.name).toBe('Kept'),
    };
    const document = await t
      .http()
      .post('/api/documents')
      .set('Authorization', customer.auth)
      .send({ name: 'Kept doc', content: 'Kept text' })
      .expect(201);
    kept.documents_enabled = {
      path: `/api/documents/${document.body.document.document_id}`,
      who: () => customer,
      check: (res) => expect(res.body.document.content).toBe('Kept text'),
    };
    kept.organizations_enabled = {
      path: `/api/organizations/${org}`,
      who: () => orgAdmin,
      check: (res) => expect(res.body.organization.name).toBe('Flagged Org'),
    };
  }, 60_000);
  afterAll(() => t?.close());

  const setFlag = async (flag: FeatureFlag, on: boolean) => {
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({ config: [{ key: flag, value: on ? 'true' : 'false' }] })
      .expect(200);
  };

  function call(method: string, path: string, who: TestUser | null, query?: Record<string, string | number>) {
    const url = path.replace(/\{\w+\}/g, NO_SUCH_ID);
    let req = t.http()[method as 'get'](url);
    if (query) req = req.query(query);
    if (who) req = req.set('Authorization', who.auth);
    return method === 'get' || method === 'delete' ? req : req.send({});
  }

  const routesOf = (feature: FeatureDeclaration) =>
    documented.filter(({ path }) => feature.api.some((prefix) => pathUnder(path, prefix)));

  /** Every call a switched-off feature must refuse: its documented routes and its bare prefixes. */
  const gatedCalls = (feature: FeatureDeclaration) => [
    ...routesOf(feature),
    ...feature.api.flatMap((prefix) => [
      { method: 'get', path: prefix },
      { method: 'post', path: prefix },
      { method: 'get', path: `${prefix}/${NO_SUCH_ID}` },
    ]),
  ];

  const gatedFeatures = FEATURES.filter((f) => f.api.length > 0 || (f.apiQuery ?? []).length > 0);

  it('declares API prefixes for every feature that has server calls', () => {
    expect(gatedFeatures.map((f) => f.flag).sort()).toEqual(
      [
        'avatars_enabled',
        'campaigns_enabled',
        'chatwidget_enabled',
        'documents_enabled',
        'hashtags_enabled',
        'organizations_enabled',
        'super_fetch',
        'templates_enabled',
        'topics_enabled',
        'tutorials_enabled',
      ].sort(),
    );
  });

  describe.each(gatedFeatures.map((f) => [f.flag, f] as const))('%s', (flag, feature) => {
    afterAll(() => setFlag(flag, true));

    it('off: its routes (built or not) answer 404 feature_disabled to everyone; the settings stay reachable', async () => {
      await setFlag(flag, false);
      const wrong: string[] = [];
      for (const { method, path } of gatedCalls(feature)) {
        for (const who of [customer, admin, null]) {
          const res = await call(method, path, who);
          if (res.status !== 404 || res.body.code !== 'feature_disabled')
            wrong.push(`${method.toUpperCase()} ${path}: ${res.status} ${res.body.code}`);
          else expect(res.body.message).toBe(featureDisabledMessage(feature));
        }
      }
      for (const name of feature.apiQuery ?? []) {
        const res = await call('get', '/api/conversations', orgAdmin, { [name]: org });
        if (res.status !== 404 || res.body.code !== 'feature_disabled')
          wrong.push(`GET /api/conversations?${name}=: ${res.status} ${res.body.code}`);
      }
      expect(wrong).toEqual([]);
      // The staff admin still reaches the settings that switch it back on.
      const settings = await call('get', '/api/appconfig/admin', admin).expect(200);
      expect(settings.body.config).toContainEqual(expect.objectContaining({ key: flag, value: 'false' }));
    });

    it('on: no route refuses as switched off, and the data kept meanwhile is back', async () => {
      await setFlag(flag, true);
      const wrong: string[] = [];
      for (const { method, path } of gatedCalls(feature)) {
        const res = await call(method, path, customer);
        if (res.body?.code === 'feature_disabled') wrong.push(`${method.toUpperCase()} ${path}`);
      }
      for (const name of feature.apiQuery ?? []) {
        await call('get', '/api/conversations', orgAdmin, { [name]: org }).expect(200);
      }
      expect(wrong).toEqual([]);
      const data = kept[flag];
      if (data) data.check(await call('get', data.path, data.who()).expect(200));
    });
  });

  it('a feature is off while the flag it requires is off (campaigns need organizations)', async () => {
    await setFlag('organizations_enabled', false);
    try {
      const res = await call('get', '/api/campaigns', customer).expect(404);
      expect(res.body.code).toBe('feature_disabled');
    } finally {
      await setFlag('organizations_enabled', true);
    }
    const res = await call('get', '/api/campaigns', customer);
    expect(res.body.code).not.toBe('feature_disabled');
  });

  it('templates_enabled off: applying a template in a chat is refused too', async () => {
    const conversation = await t
      .http()
      .post('/api/conversations')
      .set('Authorization', customer.auth)
      .send({ name: 'Apply' })
      .expect(201);
    const templateId = Number(kept.templates_enabled!.path.split('/').pop());
    await setFlag('templates_enabled', false);
    try {
      const res = await t
        .http()
        .post('/api/messages')
        .set('Authorization', customer.auth)
        .send({
          conversation_id: conversation.body.conversation.conversation_id,
          template_id: templateId,
          values: { topic: 'cats' },
        })
        .expect(404);
      expect(res.body.code).toBe('feature_disabled');
    } finally {
      await setFlag('templates_enabled', true);
    }
  });

  it('signup_enabled off: sign-up answers 403 signup_disabled; on: it signs up', async () => {
    const body = (n: number) => ({
      name: 'New',
      last_name: 'Person',
      email: `flag-signup-${n}@example.com`,
      password: 'secret123',
      phone: '5551234567',
    });
    await setFlag('signup_enabled', false);
    const refused = await t.http().post('/api/auth/signup').send(body(1)).expect(403);
    expect(refused.body.code).toBe('signup_disabled');
    await setFlag('signup_enabled', true);
    await t.http().post('/api/auth/signup').send(body(2)).expect(201);
  });

  it('socket events of a switched-off feature are not sent; they are again once it is on', async () => {
    const received: string[] = [];
    const socket = await userSocket(t.app, customer, (s) =>
      (s as unknown as { onAny(fn: (event: string) => void): void }).onAny((event) => received.push(event)),
    );
    try {
      const realtime = t.app.get(RealtimeService);
      // An event the documents feature will send: typed once it exists, so cast here.
      const emit = (event: string) =>
        (realtime.emitToUser as (u: number, e: string, p: unknown) => void)(customer.user_id, event, {});
      const arrived = async () => {
        await new Promise((r) => setTimeout(r, 300));
        return [...received];
      };
      await setFlag('documents_enabled', false);
      emit('document_output');
      emit('message_stream_end');
      expect(await arrived()).toEqual(['message_stream_end']);
      received.length = 0;
      await setFlag('documents_enabled', true);
      emit('document_output');
      expect(await arrived()).toEqual(['document_output']);
    } finally {
      socket.close();
    }
  });
});
