import { templateGrammar } from '@avatar-studio/contracts';
import { createApp } from '../src/bootstrap';
import { StarterContentService } from '../src/modules/setup/starter-content.service';
import {
  STARTER_TEMPLATES,
  STARTER_WORKFLOWS,
  starterDataProblems,
} from '../src/modules/setup/starter-content';
import { startTestApp, TestApp, TestUser } from './harness';

const TEMPLATE_COUNT = STARTER_TEMPLATES.length * 2;
const WORKFLOW_COUNT = STARTER_WORKFLOWS.length * 2;

describe('Starter content', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;

  const counts = async () => {
    const [{ templates }] = await t.db.query(
      `SELECT count(*)::int AS templates FROM templates WHERE starter`,
    );
    const [{ workflows }] = await t.db.query(
      `SELECT count(*)::int AS workflows FROM workflows WHERE starter`,
    );
    return { templates, workflows };
  };
  /**
   * Another instance of the app starting on the same database: what a restart runs. It stays up until the end
   * (closing one instance ends shared state the first one still uses).
   */
  const others: Awaited<ReturnType<typeof createApp>>[] = [];
  const restart = async () => {
    const again = await createApp(t.env, { logger: false });
    await again.init();
    others.push(again);
  };

  beforeAll(async () => {
    t = await startTestApp({
      STARTER_CONTENT: 'true',
      ADMIN_EMAIL: 'first-admin@example.com',
      ADMIN_PASSWORD: 'first-admin-password',
    });
    admin = await t.createUser({ staff: 'admin' });
    customer = await t.createUser();
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await t.close();
  });

  it('ships data files without duplicate keys or unknown workflow steps, in at least 30 templates', () => {
    expect(starterDataProblems()).toEqual([]);
    expect(STARTER_TEMPLATES.length).toBeGreaterThanOrEqual(30);
    expect(STARTER_WORKFLOWS.length).toBeGreaterThanOrEqual(3);
  });

  it('loads every template in English and Spanish, and the workflows, on the first start', async () => {
    expect(await counts()).toEqual({ templates: TEMPLATE_COUNT, workflows: WORKFLOW_COUNT });
    const rows: { language: string; type: string; public: boolean; user_id: number }[] = await t.db.query(
      `SELECT language, type, public, user_id FROM templates WHERE starter`,
    );
    expect(rows.filter((r) => r.language === 'en')).toHaveLength(STARTER_TEMPLATES.length);
    expect(rows.filter((r) => r.language === 'es')).toHaveLength(STARTER_TEMPLATES.length);
    expect(rows.every((r) => r.public)).toBe(true);
    const [{ user_id: firstAdmin }] = await t.db.query(`SELECT user_id FROM users WHERE email = $1`, [
      'first-admin@example.com',
    ]);
    expect(rows.every((r) => r.user_id === firstAdmin)).toBe(true);
    const types = new Set(rows.filter((r) => r.language === 'en').map((r) => r.type));
    expect([...types].sort()).toEqual(
      [
        'Advertising',
        'Blog & Articles',
        'Business',
        'E-commerce',
        'Education',
        'Email',
        'SEO',
        'Social Media',
      ].sort(),
    );
  });

  it('shows them to customers, with fields and select options from their placeholders', async () => {
    const res = await t
      .http()
      .get('/api/templates?limit=200&language=es')
      .set('Authorization', customer.auth)
      .expect(200);
    expect(res.body.templates).toHaveLength(STARTER_TEMPLATES.length);
    for (const template of res.body.templates) {
      const placeholders = templateGrammar.parsePlaceholders(template.content);
      expect(template.fields.map((f: { name: string }) => f.name)).toEqual(placeholders.map((p) => p.name));
      expect(template.fields.length).toBeGreaterThan(0);
    }
    const selects = res.body.templates.flatMap((tpl: { fields: { type: string; options: string[] }[] }) =>
      tpl.fields.filter((f) => f.type === 'select'),
    );
    expect(selects.length).toBeGreaterThanOrEqual(15);
    expect(selects.every((f: { options: string[] }) => f.options.length >= 2)).toBe(true);
  });

  it('passes every template rule: each one saves unchanged through the template API', async () => {
    const res = await t
      .http()
      .get('/api/templates/all?limit=200')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(res.body.templates).toHaveLength(TEMPLATE_COUNT);
    for (const template of res.body.templates) {
      await t
        .http()
        .put('/api/templates')
        .set('Authorization', admin.auth)
        .send({
          template_id: template.template_id,
          name: template.name,
          description: template.description,
          content: template.content,
          type: template.type,
          tags: template.tags,
          fields: template.fields,
        })
        .expect(200);
    }
  });

  it('builds each workflow from the same language’s templates, in step order', async () => {
    const res = await t
      .http()
      .get('/api/workflows?limit=200')
      .set('Authorization', customer.auth)
      .expect(200);
    expect(res.body.workflows).toHaveLength(WORKFLOW_COUNT);
    const blog = res.body.workflows.find((w: { name: string }) => w.name === 'Blog post from a topic');
    expect(blog.templates.map((s: { name: string }) => s.name)).toEqual([
      'Blog post outline',
      'Full blog post',
      'SEO title and meta description',
      'LinkedIn post',
    ]);
    const kit = res.body.workflows.find((w: { name: string }) => w.name === 'Kit de lanzamiento de producto');
    expect(kit.templates).toHaveLength(4);
    expect(kit.templates[0].name).toBe('Descripción de producto');
  });

  it('loads only once: a second start adds nothing', async () => {
    expect(await t.app.get(StarterContentService).loadIfFirstRun()).toBe(false);
    await restart();
    expect(await counts()).toEqual({ templates: TEMPLATE_COUNT, workflows: WORKFLOW_COUNT });
  });

  it('reports the starter content on the checklist, and lets only staff admins remove it', async () => {
    const before = await t.http().get('/api/setup/checklist').set('Authorization', admin.auth).expect(200);
    expect(before.body.starter).toEqual({
      state: 'loaded',
      templates: TEMPLATE_COUNT,
      workflows: WORKFLOW_COUNT,
    });
    await t.http().delete('/api/setup/starter-content').set('Authorization', customer.auth).expect(403);
    expect(await counts()).toEqual({ templates: TEMPLATE_COUNT, workflows: WORKFLOW_COUNT });
  });

  it('removes all of it in one action, keeps other templates, and never loads it again', async () => {
    const own = await t
      .http()
      .post('/api/templates')
      .set('Authorization', customer.auth)
      .send({ name: 'Mine', description: 'Kept', content: 'Write about [Topic]' })
      .expect(201);
    const removed = await t
      .http()
      .delete('/api/setup/starter-content')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(removed.body).toEqual({ state: 'removed', templates: 0, workflows: 0 });
    expect(await counts()).toEqual({ templates: 0, workflows: 0 });
    const list = await t
      .http()
      .get('/api/templates?limit=200')
      .set('Authorization', customer.auth)
      .expect(200);
    expect(list.body.templates.map((x: { template_id: number }) => x.template_id)).toEqual([
      own.body.template.template_id,
    ]);
    expect(
      (await t.http().get('/api/workflows').set('Authorization', customer.auth).expect(200)).body.workflows,
    ).toEqual([]);

    // Even with the library empty again, a restart does not bring it back.
    await t
      .http()
      .delete(`/api/templates/${own.body.template.template_id}`)
      .set('Authorization', customer.auth)
      .expect(204);
    await restart();
    expect(await counts()).toEqual({ templates: 0, workflows: 0 });
    const after = await t.http().get('/api/setup/checklist').set('Authorization', admin.auth).expect(200);
    expect(after.body.starter.state).toBe('removed');
  });
});

describe('Starter content switched off', () => {
  it('loads nothing with STARTER_CONTENT=false (the harness default)', async () => {
    const t = await startTestApp({
      ADMIN_EMAIL: 'first-admin@example.com',
      ADMIN_PASSWORD: 'first-admin-password',
    });
    try {
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM templates`);
      expect(n).toBe(0);
      const admin = await t.createUser({ staff: 'admin' });
      const res = await t.http().get('/api/setup/checklist').set('Authorization', admin.auth).expect(200);
      expect(res.body.starter).toEqual({ state: 'none', templates: 0, workflows: 0 });
    } finally {
      await t.close();
    }
  });
});
