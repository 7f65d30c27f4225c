import { startTestApp, TestApp, TestUser } from './harness';

describe('Workflows API', () => {
  let t: TestApp;
  let member: TestUser;
  let manager: TestUser;
  let outline: number;
  let tweet: number;

  beforeAll(async () => {
    t = await startTestApp();
    member = await t.createUser();
    manager = await t.createUser({ staff: 'manager' });
    outline = await template(manager, 'Outline', 'Write a [tone[formal/casual]] outline about [topic].');
    tweet = await template(manager, 'Tweet', 'Write a tweet about [topic] for [audience].');
  });
  afterAll(() => t.close());

  const as = (who: TestUser) => ({
    get: (url: string) => t.http().get(url).set('Authorization', who.auth),
    post: (url: string, body: object) => t.http().post(url).set('Authorization', who.auth).send(body),
    put: (url: string, body: object) => t.http().put(url).set('Authorization', who.auth).send(body),
    del: (url: string) => t.http().delete(url).set('Authorization', who.auth),
  });

  async function template(who: TestUser, name: string, content: string): Promise<number> {
    const res = await as(who)
      .post('/api/templates', { name, description: `${name} step`, content })
      .expect(201);
    return res.body.template.template_id as number;
  }

  async function create(body: object): Promise<Record<string, unknown>> {
    const res = await as(manager)
      .post('/api/workflows', { name: 'Blog launch', template_ids: [outline, tweet], ...body })
      .expect(201);
    return res.body.workflow;
  }

  it('lets staff create, change and delete a workflow that every user can read', async () => {
    const created = await create({
      name: ' Blog launch ',
      description: 'Plan and announce a post.',
      tags: ['blog', ' e2e', 'blog'],
    });
    expect(created).toMatchObject({
      name: 'Blog launch',
      description: 'Plan and announce a post.',
      tags: 'blog,e2e',
      templates: [
        { template_id: outline, name: 'Outline', description: 'Outline step', order: 1 },
        { template_id: tweet, name: 'Tweet', description: 'Tweet step', order: 2 },
      ],
    });
    expect(typeof created.createdAt).toBe('string');
    const id = created.workflow_id as number;

    const read = await as(member).get(`/api/workflows/${id}`).expect(200);
    expect(read.body.workflow).toEqual(created);

    const changed = await as(manager)
      .put('/api/workflows', { workflow_id: id, name: 'Launch', tags: 'news', template_ids: [tweet] })
      .expect(200);
    expect(changed.body.workflow).toMatchObject({
      workflow_id: id,
      name: 'Launch',
      description: 'Plan and announce a post.',
      tags: 'news',
      templates: [{ template_id: tweet, order: 1 }],
    });
    expect(changed.body.workflow.fields.map((f: { name: string }) => f.name)).toEqual(['topic', 'audience']);

    await as(manager).del(`/api/workflows/${id}`).expect(204);
    await as(member).get(`/api/workflows/${id}`).expect(404);
    await as(manager).del(`/api/workflows/${id}`).expect(404);
  });

  it('derives the fields from the placeholders of every step, in order, each name once, with selects', async () => {
    const { fields } = await create({});
    expect(fields).toEqual([
      {
        name: 'tone',
        label: 'tone',
        type: 'select',
        options: ['formal', 'casual'],
        order: 1,
        value: 'formal',
      },
      { name: 'topic', label: 'topic', type: 'text', options: [], order: 2, value: '' },
      { name: 'audience', label: 'audience', type: 'text', options: [], order: 3, value: '' },
    ]);
  });

  it('answers 403 to a member creating, changing or deleting a workflow', async () => {
    const { workflow_id } = await create({});
    await as(member)
      .post('/api/workflows', { name: 'Mine', template_ids: [outline] })
      .expect(403);
    await as(member).put('/api/workflows', { workflow_id, name: 'Mine' }).expect(403);
    await as(member).del(`/api/workflows/${workflow_id}`).expect(403);
    await as(member).get(`/api/workflows/${workflow_id}`).expect(200);
  });

  it('answers 400 with a clear message for each bad input', async () => {
    const bad = async (body: object, field: string, message: string) => {
      const res = await as(manager).post('/api/workflows', body).expect(400);
      expect(res.body.message).toBe(message);
      expect(res.body.errors).toContainEqual({ field, message });
    };
    await bad({ template_ids: [outline] }, 'name', "The name can't be empty.");
    await bad({ name: '   ', template_ids: [outline] }, 'name', "The name can't be empty.");
    await bad(
      { name: 'x'.repeat(256), template_ids: [outline] },
      'name',
      'The name must be 255 characters or fewer.',
    );
    await bad({ name: 'W' }, 'template_ids', 'A workflow needs at least one template.');
    await bad({ name: 'W', template_ids: 3 }, 'template_ids', 'template_ids must be a list of template ids.');
    await bad({ name: 'W', template_ids: [] }, 'template_ids', 'A workflow needs at least one template.');
    await bad(
      { name: 'W', template_ids: Array.from({ length: 21 }, (_, i) => i + 1) },
      'template_ids',
      'A workflow can have at most 20 templates.',
    );
    await bad(
      { name: 'W', template_ids: [outline, outline] },
      'template_ids',
      'Each template can be in a workflow only once.',
    );
    await bad({ name: 'W', template_ids: ['a'] }, 'template_ids', 'Each template id must be a whole number.');
    await bad(
      { name: 'W', template_ids: [outline], tags: 5 },
      'tags',
      'Tags must be a comma-separated text or a list of texts.',
    );
    await bad(
      { name: 'W', template_ids: [outline, 999999] },
      'template_ids',
      'Template 999999 does not exist.',
    );
    const unknown = await as(manager)
      .post('/api/workflows', { name: 'W', template_ids: [999999] })
      .expect(400);
    expect(unknown.body.code).toBe('unknown_templates');

    const { workflow_id } = await create({});
    const put = await as(manager).put('/api/workflows', { workflow_id, name: null }).expect(400);
    expect(put.body.message).toBe("The name can't be empty.");
    await as(manager).put('/api/workflows', { workflow_id, template_ids: [] }).expect(400);
    await as(manager).put('/api/workflows', { workflow_id: 999999, name: 'Nope' }).expect(404);
    await as(member).get('/api/workflows/abc').expect(400);
    await as(member).get('/api/workflows/99999999999').expect(400);
    await as(member).get('/api/workflows?page=0').expect(400);
  });

  it('lists 24 per page, searches, filters by tag and counts the tags of the search results', async () => {
    await t.db.query(`DELETE FROM workflows`);
    await create({ name: 'SEO article', description: 'Long form', tags: 'blog,seo' });
    await create({ name: 'Newsletter', description: 'Weekly mail', tags: 'email' });
    await create({ name: 'Blog series', description: 'Three posts', tags: 'blog' });

    const all = await as(member).get('/api/workflows').expect(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 24 });
    expect(all.body.workflows.map((w: { name: string }) => w.name)).toEqual([
      'Blog series',
      'Newsletter',
      'SEO article',
    ]);
    expect(all.body.workflows[0].fields).toHaveLength(3);
    expect(all.body.tags).toEqual([
      { tag: 'blog', count: 2 },
      { tag: 'email', count: 1 },
      { tag: 'seo', count: 1 },
    ]);

    const tagged = await as(member).get('/api/workflows?tag=blog').expect(200);
    expect(tagged.body.workflows.map((w: { name: string }) => w.name)).toEqual([
      'Blog series',
      'SEO article',
    ]);
    expect(tagged.body.total).toBe(2);

    const searched = await as(member).get('/api/workflows?query=long').expect(200);
    expect(searched.body.workflows.map((w: { name: string }) => w.name)).toEqual(['SEO article']);
    expect(searched.body.tags).toEqual([
      { tag: 'blog', count: 1 },
      { tag: 'seo', count: 1 },
    ]);

    for (let i = 0; i < 22; i++) await create({ name: `Bulk ${i}` });
    const page1 = await as(member).get('/api/workflows').expect(200);
    expect(page1.body.workflows).toHaveLength(24);
    expect(page1.body.total).toBe(25);
    const page2 = await as(member).get('/api/workflows?page=2').expect(200);
    expect(page2.body.workflows.map((w: { name: string }) => w.name)).toEqual(['SEO article']);
  });

  it('drops a deleted template from the workflows using it', async () => {
    const doomed = await template(manager, 'Doomed', 'About [subject].');
    const { workflow_id } = await create({ template_ids: [doomed, tweet] });
    await as(manager).del(`/api/templates/${doomed}`).expect(204);
    const res = await as(member).get(`/api/workflows/${workflow_id}`).expect(200);
    expect(res.body.workflow.templates.map((s: { template_id: number }) => s.template_id)).toEqual([tweet]);
    expect(res.body.workflow.fields.map((f: { name: string }) => f.name)).toEqual(['topic', 'audience']);
  });
});
