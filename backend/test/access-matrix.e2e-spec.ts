import { randomBytes } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { buildOpenApiDocument } from '../src/bootstrap';
import { AuthService } from '../src/modules/auth/auth.service';
import type { Principal } from '../src/common/auth/principal';
import { WordsService } from '../src/modules/words/words.service';
import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR_CODE_DIGITS, TWO_FACTOR_PERIOD_SECONDS } from '@avatar-studio/contracts';
import { SecretBox, sha256 } from '../src/common/crypto/secret-box';
import { signVerificationToken } from '../src/modules/auth/email-verification';
import {
  ACCESS,
  AccessCase,
  Call,
  Caller,
  CUSTOMERS,
  Fixtures,
  FreshMakers,
  PRINCIPALS,
  PrincipalName,
  SignedIn,
  WIDGET_SITE,
} from './access-matrix';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { FakePayPal, startFakePayPal } from './fakes/paypal-server';
import { FakeStripe, startFakeStripe } from './fakes/stripe-server';
import Stripe from 'stripe';
import { AppConfigService } from '../src/modules/app-config/app-config.service';
import { startTestApp, TestApp, TestUser } from './harness';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/** A row a call names (by a path parameter or a body field), which a refused write must leave as it was. */
interface Target {
  table: string;
  column: string;
  id: string | number;
}

/** Which table and key a path parameter or body field names. `{id}` depends on the route. */
const TARGET_FIELDS: Record<string, { table: string; column: string }> = {
  conversation_id: { table: 'conversations', column: 'conversation_id' },
  document_id: { table: 'documents', column: 'document_id' },
  message_id: { table: 'messages', column: 'message_id' },
  template_id: { table: 'templates', column: 'template_id' },
  user_workflow_id: { table: 'user_workflows', column: 'user_workflow_id' },
  workflow_id: { table: 'workflows', column: 'workflow_id' },
  staff_id: { table: 'staff', column: 'user_id' },
  user_id: { table: 'users', column: 'user_id' },
  file_id: { table: 'files', column: 'file_id' },
  user_organization_id: { table: 'user_organizations', column: 'user_organization_id' },
};
const ID_BY_ROUTE: [RegExp, { table: string; column: string }][] = [
  [/^\/api\/files\/\{id\}/, { table: 'files', column: 'file_id' }],
  [/^\/api\/organizations\/\{id\}/, { table: 'organizations', column: 'organization_id' }],
  [/^\/api\/user-organizations\/\{id\}/, { table: 'user_organizations', column: 'user_organization_id' }],
  [
    /^\/api\/organization-invitations\/\{id\}/,
    { table: 'organization_invitations', column: 'invitation_id' },
  ],
];
/** Columns that other principals' concurrent calls (or background work they started) may touch legitimately. */
const VOLATILE_COLUMNS = /^(updatedAt|updated_at|last_\w+|lease_until|partial_content|expires_at)$/;

/** The rows `call` names: path parameters, and the id fields of its JSON body. */
function targetsOf(path: string, call: Call): Target[] {
  const targets: Target[] = [];
  for (const [name, value] of Object.entries(call.params ?? {})) {
    const where = name === 'id' ? ID_BY_ROUTE.find(([re]) => re.test(path))?.[1] : TARGET_FIELDS[name];
    if (where) targets.push({ ...where, id: value });
  }
  if (call.body && typeof call.body === 'object' && !Array.isArray(call.body)) {
    for (const [name, value] of Object.entries(call.body as Record<string, unknown>)) {
      const where = TARGET_FIELDS[name];
      if (where && (typeof value === 'number' || typeof value === 'string'))
        targets.push({ ...where, id: value });
    }
  }
  return targets;
}

/** Runs `work` holding every key (taken in a fixed order, so two callers never wait on each other). */
function keyedLock() {
  const tails = new Map<string, Promise<void>>();
  return async function withKeys<T>(keys: string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const releases: (() => void)[] = [];
    for (const key of sorted) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => mine);
      tails.set(key, tail);
      releases.push(() => {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      });
      await previous;
    }
    try {
      return await work();
    } finally {
      for (const release of releases) release();
    }
  };
}
/** Cases checked at once (each case's principals run one after another). */
const CONCURRENCY = 4;

/** Every route of the OpenAPI document, as `METHOD /api/path`. */
function documentedRoutes(t: TestApp): string[] {
  const document = buildOpenApiDocument(t.app);
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

describe('authorization matrix', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  const as = {} as Record<SignedIn, TestUser>;
  let f: Fixtures;
  let make: FreshMakers;

  let stripe: FakeStripe;
  let paypal: FakePayPal;
  const stripeSigner = new Stripe('sk_test_signer');
  const ORG_WEBHOOK_SECRET = 'whsec_matrix_organization';

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    stripe = await startFakeStripe({ keys: ['sk_test_platform', 'sk_test_matrix_org'] });
    paypal = await startFakePayPal();
    t = await startTestApp({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      STRIPE_API_BASE: stripe.url,
      PAYPAL_API_BASE: paypal.url,
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await stripe?.close();
    await paypal?.close();
  });

  /** Platform Stripe and PayPal keys in app config, and the matrix organization's own Stripe keys. */
  async function configurePayments(orgId: number, adminId: number): Promise<void> {
    await t.app.get(AppConfigService).update(
      [
        { key: 'stripe_private_key', value: 'sk_test_platform' },
        { key: 'stripe_public_key', value: 'pk_test_platform' },
        { key: 'stripe_webhook_key', value: stripe.webhookSecret },
        { key: 'paypal_client_id', value: paypal.clientId },
        { key: 'paypal_client_secret', value: paypal.clientSecret },
        { key: 'paypal_webhook_id', value: paypal.webhookId },
      ],
      adminId,
    );
    const box = new SecretBox(t.env.appSecret);
    await t.db.query(
      `UPDATE organizations SET stripe_public = 'pk_test_matrix_org', stripe_secret = $2, stripe_webhook_secret = $3
       WHERE organization_id = $1`,
      [orgId, box.encrypt('sk_test_matrix_org'), box.encrypt(ORG_WEBHOOK_SECRET)],
    );
  }

  async function insertProduct(fields: Record<string, unknown>): Promise<number> {
    const columns = Object.keys(fields);
    const [{ product_id }] = await t.db.query(
      `INSERT INTO products (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
       RETURNING product_id`,
      Object.values(fields),
    );
    return product_id;
  }

  /** A signed Stripe event (its JSON and the stripe-signature header for it). */
  function signedStripeEvent(secret: string): Record<string, string> {
    const event = stripe.event('customer.created', {
      id: `cus_${randomBytes(6).toString('hex')}`,
      object: 'customer',
    });
    const body = JSON.stringify(event);
    return {
      event: body,
      signature: stripeSigner.webhooks.generateTestHeaderString({ payload: body, secret }),
    };
  }

  /** A new account of the given kind (a member of the matrix organization in its role, staff...). */
  async function principal(kind: SignedIn, orgId?: number, otherOrgId?: number): Promise<TestUser> {
    const staff = kind === 'staffAdmin' ? 'admin' : kind === 'staffManager' ? 'manager' : undefined;
    const user = await t.createUser({ staff });
    const role = { member: 3, manager: 2, orgAdmin: 1 } as const;
    if (kind in role && orgId) await t.addMember(orgId, user.user_id, role[kind as keyof typeof role]);
    if (kind === 'otherOrgAdmin' && otherOrgId) await t.addMember(otherOrgId, user.user_id, 1);
    if (CUSTOMERS.includes(kind))
      await t.app.get(WordsService).grant(user.user_id, { words: 1_000_000, source: 'gift' });
    return user;
  }

  function send(method: string, path: string, call: Call, who: TestUser | null): Test {
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = call.params?.[name];
      if (value === undefined) throw new Error(`${method} ${path}: no value for {${name}}`);
      return encodeURIComponent(String(value));
    });
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    let req = t.http()[verb](url);
    if (call.query) req = req.query(call.query);
    if (who) req = req.set('Authorization', who.auth);
    if (call.headers) req = req.set(call.headers);
    if (call.upload) {
      for (const [name, value] of Object.entries(call.upload.fields ?? {})) req = req.field(name, value);
      return req.attach(call.upload.field, Buffer.from(call.upload.content), call.upload.name);
    }
    if (call.body !== undefined) return req.send(call.body as object);
    return req;
  }

  async function ok<T>(req: Test, status: number, pick: (body: Response['body']) => T): Promise<T> {
    const res = await req;
    if (res.status !== status)
      throw new Error(`fixture: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return pick(res.body);
  }

  const post = (who: SignedIn, path: string, body: object, query?: Record<string, number>) =>
    send('POST', path, { body, query }, as[who]);

  async function waitForUserWorkflow(id: number): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const res = await send('GET', `/api/user_workflows/${id}`, {}, as.owner);
      const steps = res.body.user_workflow?.user_workflow_templates as
        { status: string; conversation_id: number }[] | undefined;
      if (steps?.length && steps.every((s) => s.status === 'done' || s.status === 'failed'))
        return steps[0].conversation_id;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('fixture: the user workflow did not finish');
  }

  async function createFixtures(): Promise<void> {
    const orgId = await t.createOrganization('Matrix Org');
    const [{ name, slug }] = await t.db.query(
      `SELECT name, slug FROM organizations WHERE organization_id = $1`,
      [orgId],
    );
    const otherOrg = await t.createOrganization('Other Org');
    for (const kind of PRINCIPALS) {
      if (kind !== 'anonymous') as[kind] = await principal(kind, orgId, otherOrg);
    }
    const ownerPhone = '5550001111';
    await t.db.query(`UPDATE users SET phone = $2 WHERE user_id = $1`, [as.owner.user_id, ownerPhone]);
    const login = await t.createUser({ password: 'login-secret1' });
    const staffTarget = await t.createUser({ staff: 'manager' });
    const [{ staff_id }] = await t.db.query(`SELECT staff_id FROM staff WHERE user_id = $1`, [
      staffTarget.user_id,
    ]);
    const [{ user_organization_id }] = await t.db.query(
      `SELECT user_organization_id FROM user_organizations WHERE user_id = $1 AND organization_id = $2`,
      [as.member.user_id, orgId],
    );
    const inOrg = { organization_id: orgId };

    const conversation = await ok(post('owner', '/api/conversations', { name: 'Owned' }), 201, (b) =>
      Number(b.conversation.conversation_id),
    );
    const message = await insertMessage(conversation);
    const publicTemplate = await ok(
      post('staffAdmin', '/api/templates', {
        name: 'Public step',
        description: 'Public',
        content: 'Write about [topic].',
        public: true,
      }),
      201,
      (b) => Number(b.template.template_id),
    );
    const workflow = await ok(
      post('staffManager', '/api/workflows', { name: 'Flow', template_ids: [publicTemplate] }),
      201,
      (b) => Number(b.workflow.workflow_id),
    );
    const userWorkflow = await ok(
      post('owner', '/api/user_workflows', { workflow_id: workflow, values: { topic: 'cats' } }),
      201,
      (b) => Number(b.user_workflow.user_workflow_id),
    );
    const file = await ok(
      post('owner', '/api/files', { name: 'private.txt', content: 'secret' }),
      201,
      (b) => ({
        id: Number(b.file.file_id),
        key: String(b.file.src).split('/').pop()!,
      }),
    );
    const avatar = await makeAvatar();
    const publicAvatar = await ok(
      post('staffAdmin', '/api/avatars', { name: 'Community', public: true }),
      201,
      (b) => Number(b.avatar.avatar_id),
    );
    const product = await ok(
      post('staffAdmin', '/api/products', {
        name: 'Matrix plan',
        description: 'Words',
        price: 1000,
        word_amount: 100,
        is_subscription: true,
        webhook_url: 'http://127.0.0.1:9/hook',
      }),
      201,
      (b) => Number(b.product.product_id),
    );
    await ok(
      post('staffAdmin', '/api/discounts', { code: 'MATRIX', type: 'percent', amount: 10 }),
      201,
      () => 0,
    );
    const purchase = await ok(
      post('staffAdmin', '/api/users/giveAccess', { user_id: as.owner.user_id, product_id: product }),
      201,
      (b) => Number(b.purchase.purchase_id),
    );
    const invoice = await ok(
      post('staffAdmin', '/api/invoices/admin', { user_id: as.owner.user_id, amount: 500 }),
      201,
      (b) => Number(b.invoice.invoice_id),
    );
    await ok(
      post('staffAdmin', '/api/discounts', { code: 'SPARE', type: 'fixed', amount: 10 }),
      201,
      () => 0,
    );
    const orgTemplate = await ok(
      post('orgAdmin', '/api/templates', { name: 'Org', description: 'Org', content: 'Org [topic].' }, inOrg),
      201,
      (b) => Number(b.template.template_id),
    );
    const campaignDocument = await ok(
      post('manager', '/api/documents', { name: 'Campaign doc' }, inOrg),
      201,
      (b) => Number(b.document.document_id),
    );
    const campaign = await ok(
      post('manager', '/api/campaigns', { organization_id: orgId, name: 'Matrix campaign' }),
      201,
      (b) => Number(b.campaign.campaign_id),
    );
    for (const [resource_id, type] of [
      [campaignDocument, 'document'],
      [orgTemplate, 'template'],
    ] as const) {
      await ok(
        post('manager', '/api/campaigns/campaign-resource', { resource_id, campaign_id: campaign, type }),
        201,
        () => 0,
      );
    }
    await ok(
      post('manager', `/api/campaigns/give-access/${campaign}`, { user_id: as.member.user_id }),
      200,
      () => 0,
    );
    const group = await ok(
      post('manager', '/api/groups', { name: 'Matrix group', organization_id: orgId }),
      201,
      (b) => Number(b.group.group_id),
    );
    await ok(post('manager', `/api/groups/users/${group}/${as.member.user_id}`, {}), 201, () => 0);
    const [{ discount_id }] = await t.db.query(`SELECT discount_id FROM discounts WHERE code = 'MATRIX'`);
    const [spare] = await t.db.query(`SELECT discount_id FROM discounts WHERE code = 'SPARE'`);
    await configurePayments(orgId, as.staffAdmin.user_id);
    const stripeProduct = stripe.addProduct('sk_test_platform', 'Matrix plan');
    stripe.addPrice('sk_test_platform', stripeProduct.id, 1000, 'month');
    f = {
      oneOffProduct: await insertProduct({
        name: 'One-off',
        description: 'Words',
        price: 1000,
        word_amount: 100,
      }),
      subscriptionProduct: await insertProduct({
        name: 'Monthly',
        description: 'Words every month',
        price: 1500,
        word_amount: 100,
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
      }),
      stripeProduct: stripeProduct.id,
      product,
      purchase,
      invoice,
      discount: discount_id,
      spareDiscount: spare.discount_id,
      ownerUserId: as.owner.user_id,
      avatar: avatar.avatar_id,
      avatarKey: avatar.assistant_id,
      superFetchAssistant: await ok(
        post('owner', '/api/avatars', { name: 'Fetcher', super_fetch_assistant: true }),
        201,
        (b) => String(b.avatar.assistant_id),
      ),
      ...(await makeWidget(avatar.avatar_id).then((w) => ({ widget: w.widget_id, widgetKey: w.public_key }))),
      avatarFile: avatar.file_id,
      publicAvatar,
      training: await makeTraining(avatar.avatar_id, file.id),
      output: await makeOutput(avatar.avatar_id),
      org: orgId,
      orgName: name,
      orgSlug: slug,
      otherOrg,
      memberMembership: user_organization_id,
      memberUserId: as.member.user_id,
      campaign,
      campaignDocument,
      group,
      conversation,
      message,
      document: await ok(post('owner', '/api/documents', { name: 'Doc', content: 'x' }), 201, (b) =>
        Number(b.document.document_id),
      ),
      template: await ok(
        post('owner', '/api/templates', { name: 'Mine', description: 'Mine', content: 'About [topic].' }),
        201,
        (b) => Number(b.template.template_id),
      ),
      orgTemplate,
      orgConversation: await ok(post('member', '/api/conversations', { name: 'Org chat' }, inOrg), 201, (b) =>
        Number(b.conversation.conversation_id),
      ),
      orgDocument: await ok(post('member', '/api/documents', { name: 'Org doc' }, inOrg), 201, (b) =>
        Number(b.document.document_id),
      ),
      tutorial: await ok(
        post('staffAdmin', '/api/tutorials', { name: 'Intro', src: 'dQw4w9WgXcQ' }),
        201,
        (b) => Number(b.tutorial.tutorial_id),
      ),
      publicTemplate,
      workflow,
      userWorkflow,
      userWorkflowConversation: await waitForUserWorkflow(userWorkflow),
      file: file.id,
      fileKey: file.key,
      staffTarget: staff_id,
      ownerEmail: as.owner.email,
      ownerPhone,
      loginEmail: login.email,
      loginPassword: 'login-secret1',
    };
  }

  /** A Personal avatar of owner with one editable file. */
  /** A Personal widget of owner, allowed on WIDGET_SITE. */
  async function makeWidget(avatarId: number): Promise<{ widget_id: number; public_key: string }> {
    return ok(
      post('owner', '/api/widgets', { avatar_id: avatarId, name: 'Matrix', allowed_origins: [WIDGET_SITE] }),
      201,
      (b) => ({ widget_id: Number(b.widget_id), public_key: String(b.public_key) }),
    );
  }

  async function makeAvatar(): Promise<{ avatar_id: number; assistant_id: string; file_id: number }> {
    const made = await ok(post('owner', '/api/avatars', { name: 'Owned avatar' }), 201, (b) => ({
      avatar_id: Number(b.avatar.avatar_id),
      assistant_id: String(b.avatar.assistant_id),
    }));
    const file_id = await ok(
      post('owner', `/api/avatars/add-editable-file/${made.avatar_id}/${made.assistant_id}`, {
        name: 'facts',
        content: 'The owl is called Hedwig.',
      }),
      201,
      (b) => Number(b.file.avatar_file_id),
    );
    return { ...made, file_id };
  }

  /** A training of owner's avatar with owner's text file; `learned`: with a style guide and a rated output. */
  async function makeTraining(avatarId: number, fileId: number, learned = false): Promise<number> {
    const id = await ok(
      post('owner', '/api/trainings', { name: 'Posts', avatar_id: avatarId, file_id: fileId }),
      201,
      (b) => Number(b.training.training_id),
    );
    if (learned) {
      await t.db.query(
        `UPDATE trainings SET style_guide = 'Be brief.', state = 'ready' WHERE training_id = $1`,
        [id],
      );
      const output = await ok(
        post('owner', '/api/outputs', { training_id: id, prompt: 'A post', content: 'Short post.' }),
        201,
        (b) => Number(b.output.output_id),
      );
      await ok(post('owner', '/api/outputs/rate', { output_id: output, rating: 'up' }), 200, () => undefined);
    }
    return id;
  }

  async function makeOutput(avatarId: number): Promise<number> {
    return ok(
      post('owner', '/api/outputs', { avatar_id: avatarId, prompt: 'A post', content: 'A post by hand.' }),
      201,
      (b) => Number(b.output.output_id),
    );
  }

  async function insertMessage(conversationId: number): Promise<number> {
    const [{ message_id }] = await t.db.query(
      `INSERT INTO messages (conversation_id, user_id, role, content) VALUES ($1, $2, 'user', 'Hi') RETURNING message_id`,
      [conversationId, as.owner.user_id],
    );
    return message_id;
  }

  /** A current code of a base32 TOTP secret, as an authenticator app shows it. */
  const totpCode = (secret: string) =>
    new TOTP({
      algorithm: 'SHA1',
      digits: TWO_FACTOR_CODE_DIGITS,
      period: TWO_FACTOR_PERIOD_SECONDS,
      secret: Secret.fromBase32(secret),
    }).generate();

  /** Turns two-factor on for the account directly (stored encrypted, as enrolment does) and answers a code. */
  async function twoFactorOn(user_id: number): Promise<string> {
    const secret = new Secret({ size: 20 }).base32;
    await t.db.query(`UPDATE users SET totp_secret = $2, totp_enabled_at = now() WHERE user_id = $1`, [
      user_id,
      new SecretBox(t.env.appSecret).encrypt(secret),
    ]);
    return totpCode(secret);
  }

  function makers(): FreshMakers {
    const auth = t.app.get(AuthService);
    const staffAdmin = { user_id: as.staffAdmin.user_id, staffRole: 'admin' } as Principal;
    let n = 0;
    const m: FreshMakers = {
      subscription: () =>
        ok(
          post('staffAdmin', '/api/users/giveAccess', { user_id: as.owner.user_id, product_id: f.product }),
          201,
          (b) => Number(b.purchase.purchase_id),
        ),
      conversationOf: (who) =>
        ok(post(who === 'anonymous' ? 'owner' : who, '/api/conversations', { name: 'Own' }), 201, (b) =>
          Number(b.conversation.conversation_id),
        ),
      async conversation(withFile) {
        const id = await ok(post('owner', '/api/conversations', { name: 'Fresh' }), 201, (b) =>
          Number(b.conversation.conversation_id),
        );
        if (withFile)
          await ok(
            send(
              'POST',
              `/api/conversations/file/${id}`,
              { upload: { field: 'file', name: 'a.txt', content: 'Attached text.' } },
              as.owner,
            ),
            201,
            () => undefined,
          );
        return id;
      },
      message: () => insertMessage(f.conversation),
      avatar: () => makeAvatar(),
      widget: async () => (await makeWidget(f.avatar)).widget_id,
      training: (learned) => makeTraining(f.avatar, f.file, learned),
      output: () => makeOutput(f.avatar),
      document: () =>
        ok(post('owner', '/api/documents', { name: 'Fresh' }), 201, (b) => Number(b.document.document_id)),
      tutorial: () =>
        ok(post('staffAdmin', '/api/tutorials', { name: 'Fresh', src: 'dQw4w9WgXcQ' }), 201, (b) =>
          Number(b.tutorial.tutorial_id),
        ),
      idea: async (kind) => {
        const [{ idea_id }] = await t.db.query(
          `INSERT INTO generated_ideas (user_id, kind, input, items, content) VALUES ($1, $2, '{}', '{"#a"}', '#a') RETURNING idea_id`,
          [as.owner.user_id, kind],
        );
        return idea_id as number;
      },
      template: () =>
        ok(post('owner', '/api/templates', { name: 'Fresh', description: 'Fresh', content: 'x' }), 201, (b) =>
          Number(b.template.template_id),
        ),
      orgTemplate: () =>
        ok(
          post(
            'orgAdmin',
            '/api/templates',
            { name: 'Fresh', description: 'Fresh', content: 'x' },
            {
              organization_id: f.org,
            },
          ),
          201,
          (b) => Number(b.template.template_id),
        ),
      workflow: () =>
        ok(
          post('staffManager', '/api/workflows', { name: 'Fresh', template_ids: [f.publicTemplate] }),
          201,
          (b) => Number(b.workflow.workflow_id),
        ),
      userWorkflow: async () => {
        const id = await ok(
          post('owner', '/api/user_workflows', { workflow_id: f.workflow, values: { topic: 'dogs' } }),
          201,
          (b) => Number(b.user_workflow.user_workflow_id),
        );
        await waitForUserWorkflow(id);
        return id;
      },
      file: () =>
        ok(post('owner', '/api/files', { name: 'fresh.txt', content: 'x' }), 201, (b) =>
          Number(b.file.file_id),
        ),
      async organization() {
        const name = `Fresh Org ${++n}`;
        const id = await t.createOrganization(name);
        await t.addMember(id, as.member.user_id, 3);
        await t.addMember(id, as.manager.user_id, 2);
        await t.addMember(id, as.orgAdmin.user_id, 1);
        return { id, name };
      },
      async membership() {
        const user = await t.createUser();
        await t.addMember(f.org, user.user_id, 3);
        const [{ user_organization_id }] = await t.db.query(
          `SELECT user_organization_id FROM user_organizations WHERE user_id = $1`,
          [user.user_id],
        );
        return user_organization_id;
      },
      async staff() {
        const user = await t.createUser({ staff: 'manager' });
        const [{ staff_id }] = await t.db.query(`SELECT staff_id FROM staff WHERE user_id = $1`, [
          user.user_id,
        ]);
        return staff_id;
      },
      async campaign(options) {
        const id = await ok(
          post('manager', '/api/campaigns', { organization_id: f.org, name: `Fresh ${++n}` }),
          201,
          (b) => Number(b.campaign.campaign_id),
        );
        if (options?.withTemplate)
          await ok(
            post('manager', '/api/campaigns/campaign-resource', {
              resource_id: f.orgTemplate,
              campaign_id: id,
              type: 'template',
            }),
            201,
            () => 0,
          );
        if (options?.givenToMember)
          await ok(
            post('manager', `/api/campaigns/give-access/${id}`, { user_id: f.memberUserId }),
            200,
            () => 0,
          );
        return id;
      },
      async group(withMember) {
        const id = await ok(
          post('manager', '/api/groups', { name: `Fresh ${++n}`, organization_id: f.org }),
          201,
          (b) => Number(b.group.group_id),
        );
        if (withMember)
          await ok(post('manager', `/api/groups/users/${id}/${f.memberUserId}`, {}), 201, () => 0);
        return id;
      },
      email: async () => (await t.createUser()).email,
      async refreshToken() {
        return ok(
          t.http().post('/api/auth/login').send({ email: f.loginEmail, password: f.loginPassword }),
          200,
          (b) => String(b.refresh_token),
        );
      },
      async resetToken() {
        const user = await t.createUser();
        const link = await auth.resetLinkFor(user.email, staffAdmin);
        return decodeURIComponent(/token=([^&#]+)/.exec(link)![1]);
      },
      async signInToken() {
        const user = await t.createUser();
        return (await auth.issueSignInToken(user.user_id)).token;
      },
      customer: async () => (await t.createUser()).user_id,
      async impersonationCode() {
        const user = await t.createUser();
        return (await auth.issueImpersonationCode(as.staffAdmin.user_id, user.user_id)).code;
      },
      async verifyToken() {
        const user = await t.createUser({ unverified: true });
        return signVerificationToken(t.env.appSecret, user.user_id, user.email);
      },
      async unverify(caller: Caller) {
        if (caller)
          await t.db.query(`UPDATE users SET email_verified_at = NULL WHERE user_id = $1`, [caller.user_id]);
      },
      async invitation(email) {
        const organization = await t.createOrganization(`Inviting Org ${++n}`);
        const token = randomBytes(24).toString('base64url');
        const [{ invitation_id }] = await t.db.query(
          `INSERT INTO organization_invitations (organization_id, email, user_type_id, token_hash, invited_by, expires_at)
           VALUES ($1, $2, 3, $3, $4, now() + interval '1 day') RETURNING invitation_id`,
          [organization, email.toLowerCase(), sha256(token), as.orgAdmin.user_id],
        );
        return { id: invitation_id, token };
      },
      async interruptedAnswer() {
        const conversation = await m.conversation();
        const question = await insertMessage(conversation);
        const [{ message_id }] = await t.db.query(
          `INSERT INTO messages (conversation_id, user_id, role, content, status, user_message_id)
           VALUES ($1, $2, 'assistant', NULL, 'interrupted', $3) RETURNING message_id`,
          [conversation, as.owner.user_id, question],
        );
        return message_id;
      },
      async twoFactorPending(caller: Caller) {
        const res = await send('POST', '/api/auth/2fa/setup', {}, caller as TestUser);
        if (res.status !== 200) throw new Error(`fixture: 2fa setup ${res.status}`);
        return totpCode(String(res.body.secret));
      },
      twoFactorOn: async (caller: Caller) => (caller ? twoFactorOn(caller.user_id) : '000000'),
      async twoFactorChallenge() {
        const user = await t.createUser({ staff: 'manager', password: 'two-factor1' });
        const code = await twoFactorOn(user.user_id);
        const challenge_token = await ok(
          t.http().post('/api/auth/login').send({ email: user.email, password: 'two-factor1' }),
          200,
          (b) => String(b.challenge_token),
        );
        return { challenge_token, code };
      },
      async confirmedSetupIntent() {
        const setup = await ok(post('owner', '/api/payment_sources/setup', {}), 201, (b) =>
          String(b.setup_intent_id),
        );
        stripe.confirmSetupIntent(setup, 'pm_card_visa');
        return setup;
      },
      async paymentSource() {
        const setup = await m.confirmedSetupIntent();
        return ok(post('owner', '/api/payment_sources', { setup_intent_id: setup }), 201, (b) =>
          Number(b.payment_source.payment_source_id),
        );
      },
      ownerPurchase: () =>
        ok(
          post('owner', '/api/checkout/attempt', {
            product_id: f.oneOffProduct,
            payment_method_id: 'pm_card_visa',
          }),
          200,
          (b) => Number(b.purchase_id),
        ),
      async approvedPayPalOrder() {
        const orderID = await ok(
          post('owner', '/api/paypal/order', { product_id: f.oneOffProduct }),
          201,
          (b) => String(b.orderID),
        );
        paypal.approveOrder(orderID);
        return orderID;
      },
      async approvedPayPalSubscription() {
        const { plan_id, purchase_id } = await ok(
          post('owner', '/api/paypal/subscription', { product_id: f.subscriptionProduct }),
          201,
          (b) => ({ plan_id: String(b.plan_id), purchase_id: Number(b.purchase_id) }),
        );
        const id = `I-${randomBytes(6).toString('hex').toUpperCase()}`;
        paypal.subscriptions.set(id, {
          id,
          plan_id,
          custom_id: String(purchase_id),
          status: 'APPROVAL_PENDING',
        });
        paypal.approveSubscription(id);
        return { subscriptionID: id, purchase_id };
      },
      stripeEvent: async () => signedStripeEvent(stripe.webhookSecret),
      organizationStripeEvent: async () => signedStripeEvent(ORG_WEBHOOK_SECRET),
      async paypalEvent() {
        const event = JSON.stringify(paypal.event('BILLING.SUBSCRIPTION.CANCELLED', { id: 'I-MATRIX' }));
        return { event, ...paypal.signedHeaders(event) };
      },
    };
    return m;
  }

  /** What the principal should get: a 2xx (or the exact status) when allowed, else the denial. */
  function expected(c: AccessCase, who: PrincipalName): { allowed: boolean; status: number | '2xx' } {
    if (c.allow.includes(who)) return { allowed: true, status: c.status ?? '2xx' };
    const status = c.denyAs?.[who] ?? (who === 'anonymous' && !c.public ? 401 : (c.deny ?? 404));
    return { allowed: false, status };
  }

  it('answers every route of the OpenAPI document as its entry says, for every principal', async () => {
    const routes = documentedRoutes(t);
    const missing = routes.filter((r) => !(r in ACCESS));
    const stale = Object.keys(ACCESS).filter((r) => !routes.includes(r));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });

    await createFixtures();
    make = makers();
    const cases = Object.entries(ACCESS).flatMap(([route, entry]) =>
      (Array.isArray(entry) ? entry : [entry]).map((c) => ({ route, c })),
    );
    const mismatches: string[] = [];
    const crossTenant: string[] = [];
    let calls = 0;
    let reread = 0;
    // Calls naming the same row run one at a time, so a refused write's before-and-after reads see only itself.
    const withKeys = keyedLock();

    /** The target rows as JSON, without the volatile columns; a missing row reads as null. */
    async function snapshot(targets: Target[]): Promise<string> {
      const rows: unknown[] = [];
      for (const { table, column, id } of targets) {
        const [row] = (await t.db.query(
          `SELECT to_jsonb(x) AS row FROM ${table} x WHERE x.${column}::text = $1::text`,
          [String(id)],
        )) as { row: Record<string, unknown> }[];
        rows.push(
          row ? Object.fromEntries(Object.entries(row.row).filter(([k]) => !VOLATILE_COLUMNS.test(k))) : null,
        );
      }
      return JSON.stringify(rows);
    }

    async function runCase(route: string, c: AccessCase): Promise<void> {
      const [method, path] = route.split(' ');
      // Denied principals first: an allowed call that removes or changes the resource goes last.
      const order = [...PRINCIPALS].sort((a, b) => Number(c.allow.includes(a)) - Number(c.allow.includes(b)));
      for (const who of order) {
        const caller =
          who === 'anonymous' ? null : c.freshPrincipals ? await principal(who, f.org, f.otherOrg) : as[who];
        const fresh = c.fresh ? await c.fresh(make, f, who, caller) : {};
        const call = c.request(f, fresh);
        const want = expected(c, who);
        // A write refused to this principal must leave what it names as it was: read before and after.
        const targets = method !== 'GET' && !want.allowed ? targetsOf(path, call) : [];
        const keys = targetsOf(path, call).map((x) => `${x.table}:${x.id}`);
        const res = await withKeys(keys, async () => {
          const before = targets.length ? await snapshot(targets) : null;
          const answer = await send(method, path, call, caller);
          if (before !== null) {
            reread++;
            const after = await snapshot(targets);
            if (after !== before)
              mismatches.push(
                `${route}${c.name ? ` [${c.name}]` : ''} as ${who}: refused with ${answer.status} but changed ` +
                  `${targets.map((x) => `${x.table} ${x.id}`).join(', ')}: ${before} -> ${after}`,
              );
          }
          return answer;
        });
        calls++;
        const label = `${route}${c.name ? ` [${c.name}]` : ''} as ${who}`;
        const success = res.status >= 200 && res.status < 300;
        if (success && !want.allowed) crossTenant.push(`${label}: ${res.status}`);
        const matches = want.status === '2xx' ? success : res.status === want.status;
        if (!matches)
          mismatches.push(
            `${label}: expected ${want.status}, got ${res.status} ${JSON.stringify(res.body?.message ?? '')}`,
          );
        if (res.status >= 400 && typeof res.body?.message !== 'string')
          mismatches.push(`${label}: a ${res.status} without a message`);
      }
    }

    const queue = [...cases];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await runCase(next.route, next.c);
      }),
    );

    console.log(
      `Authorization matrix: ${routes.length} routes, ${cases.length} cases x ${PRINCIPALS.length} principals = ${calls} calls; ` +
        `${mismatches.length} mismatches, ${crossTenant.length} cross-tenant successes; ${reread} refused writes re-read unchanged or reported`,
    );
    expect(crossTenant).toEqual([]);
    expect(mismatches).toEqual([]);
    // The re-read must have run: every write route refuses someone.
    expect(reread).toBeGreaterThan(50);
    // About 2,500 calls: a bound for a loaded 2-core machine, not a speed target.
  }, 480_000);
});
