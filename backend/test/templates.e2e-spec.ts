import { startTestApp, TestApp, TestUser } from './harness';

describe('Templates API', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let manager: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.createUser();
    other = await t.createUser();
    admin = await t.createUser({ staff: 'admin' });
    manager = await t.createUser({ staff: 'manager' });
  });
  afterAll(() => t.close());

  const as = (who: TestUser) => ({
    get: (url: string) => t.http().get(url).set('Authorization', who.auth),
    post: (url: string, body: object) => t.http().post(url).set('Authorization', who.auth).send(body),
    put: (url: string, body: object) => t.http().put(url).set('Authorization', who.auth).send(body),
    del: (url: string) => t.http().delete(url).set('Authorization', who.auth),
  });

  const base = { name: 'Blog post', description: 'Writes a post', content: 'Write about [topic].' };

  async function create(who: TestUser, body: object, scope = ''): Promise<Record<string, unknown>> {
    const res = await as(who)
      .post(`/api/templates${scope}`, { ...base, ...body })
      .expect(201);
    return res.body.template;
  }

  const names = (body: { templates: { name: string }[] }) => body.templates.map((x) => x.name);

  it('answers 401 without a session', async () => {
    await t.http().get('/api/templates').expect(401);
  });

  it('creates, reads, updates and deletes a template', async () => {
    const created = await create(owner, {
      name: ' Email ',
      type: 'Marketing',
      tags: ' a, b,a,',
      language: 'es',
      editable: true,
      show_prompt: false,
    });
    expect(created).toMatchObject({
      user_id: owner.user_id,
      organization_id: null,
      name: 'Email',
      description: 'Writes a post',
      content: 'Write about [topic].',
      type: 'Marketing',
      tags: 'a,b',
      language: 'es',
      public: false,
      editable: true,
      show_prompt: false,
      favorite: false,
      fields: [{ name: 'topic', label: 'topic', type: 'text', options: [], order: 1, value: '' }],
    });
    const id = created.template_id as number;
    const got = await as(owner).get(`/api/templates/${id}`).expect(200);
    expect(got.body.template).toMatchObject({ template_id: id, content: 'Write about [topic].' });

    const updated = await as(owner)
      .put('/api/templates', { template_id: id, name: 'Renamed', tags: ['c', 'd,e'] })
      .expect(200);
    expect(updated.body.template).toMatchObject({
      name: 'Renamed',
      tags: 'c,d,e',
      content: 'Write about [topic].',
      language: 'es',
    });
    const rows = await t.db.query(`SELECT tag FROM template_tags WHERE template_id = $1 ORDER BY tag`, [id]);
    expect(rows.map((r: { tag: string }) => r.tag)).toEqual(['c', 'd', 'e']);

    // An explicit null type empties it, as on create (it used to fail with a 500).
    const untyped = await as(owner).put('/api/templates', { template_id: id, type: null }).expect(200);
    expect(untyped.body.template).toMatchObject({ name: 'Renamed', type: '' });

    await as(owner).del(`/api/templates/${id}`).expect(204);
    const gone = await as(owner).get(`/api/templates/${id}`).expect(404);
    expect(gone.body).toMatchObject({ message: 'Template not found.', code: 'template_not_found' });
    await as(owner).del(`/api/templates/${id}`).expect(404);
  });

  it('derives fields from placeholders, deduplicated in order, keeping given settings', async () => {
    const created = await create(owner, {
      content: 'Hi [name], about [ topic ] and [name] in [tone]. [] is not a field.',
      fields: [
        { name: 'tone', label: 'Tone', type: 'select', options: ['formal', 'casual'] },
        { name: 'gone', label: 'Not in the content' },
      ],
    });
    expect(created.fields).toEqual([
      { name: 'name', label: 'name', type: 'text', options: [], order: 1, value: '' },
      { name: 'topic', label: 'topic', type: 'text', options: [], order: 2, value: '' },
      {
        name: 'tone',
        label: 'Tone',
        type: 'select',
        options: ['formal', 'casual'],
        order: 3,
        value: 'formal',
      },
    ]);
    // Stored slash-joined with a trailing slash, the spec's saved form.
    const [row] = await t.db.query(`SELECT fields FROM templates WHERE template_id = $1`, [
      created.template_id,
    ]);
    expect(row.fields[2].options).toBe('formal/casual/');

    // Changing the content re-derives; settings of kept names survive, a given order wins.
    const res = await as(owner)
      .put('/api/templates', {
        template_id: created.template_id,
        content: '[tone] then [count]',
        fields: [{ name: 'count', type: 'number', order: 1 }],
      })
      .expect(200);
    expect(res.body.template.fields).toEqual([
      { name: 'count', label: 'count', type: 'number', options: [], order: 1, value: '' },
      {
        name: 'tone',
        label: 'Tone',
        type: 'select',
        options: ['formal', 'casual'],
        order: 2,
        value: 'formal',
      },
    ]);
  });

  it('reads stored options by dropping the piece after the final slash', async () => {
    const created = await create(owner, { content: '[a] [b]' });
    await t.db.query(`UPDATE templates SET fields = $2::jsonb WHERE template_id = $1`, [
      created.template_id,
      JSON.stringify([
        { name: 'a', label: 'a', type: 'select', options: 'x/y/', order: 1 },
        { name: 'b', label: 'b', type: 'select', options: 'x/y', order: 2 },
      ]),
    ]);
    const got = await as(owner).get(`/api/templates/${created.template_id}`).expect(200);
    expect(got.body.template.fields.map((f: { options: string[] }) => f.options)).toEqual([
      ['x', 'y'],
      ['x'],
    ]);
    // The slash-joined form is accepted on input too and read by the same rule.
    const sent = await create(owner, {
      content: '[c]',
      fields: [{ name: 'c', type: 'select', options: 'p/q/' }],
    });
    expect(sent.fields).toMatchObject([{ options: ['p', 'q'], value: 'p' }]);
  });

  it('refuses incomplete templates with the spec messages, word for word', async () => {
    const res = await as(owner).post('/api/templates', { name: ' ', content: '' }).expect(400);
    expect(res.body).toMatchObject({
      message: 'Please complete all the required fields to save.',
      code: 'validation_failed',
      errors: [
        { field: 'name', message: "The input can't be empty" },
        { field: 'description', message: "The input can't be empty" },
        { field: 'content', message: "The input can't be empty" },
      ],
    });

    const repeated = await as(owner)
      .post('/api/templates', { ...base, fields: [{ name: 'topic' }, { name: 'topic' }] })
      .expect(400);
    expect(repeated.body.message).toBe("Content can't have repeated fields");

    const empty = await as(owner)
      .post('/api/templates', { ...base, fields: [{ name: 'topic', label: ' ' }] })
      .expect(400);
    expect(empty.body).toMatchObject({
      message: "The input can't be empty",
      errors: [{ field: 'fields.0.label', message: "The input can't be empty" }],
    });
    const long = await as(owner)
      .post('/api/templates', { ...base, fields: [{ name: 'topic', label: 'x'.repeat(255) }] })
      .expect(400);
    expect(long.body.message).toBe('The input max length is 254 characters');
    await as(owner)
      .post('/api/templates', { ...base, fields: [{ name: 'topic', label: 'x'.repeat(254) }] })
      .expect(201);

    for (const options of [[], undefined]) {
      const select = await as(owner)
        .post('/api/templates', { ...base, fields: [{ name: 'topic', type: 'select', options }] })
        .expect(400);
      expect(select.body.message).toBe('Select type must have at least one option');
    }
    const blank = await as(owner)
      .post('/api/templates', { ...base, fields: [{ name: 'topic', type: 'select', options: ['a', ' '] }] })
      .expect(400);
    expect(blank.body.errors).toEqual([{ field: 'fields.0.options.1', message: "The input can't be empty" }]);

    const lang = await as(owner)
      .post('/api/templates', { ...base, language: 'fr' })
      .expect(400);
    expect(lang.body.message).toBe('language must be en or es.');
    await as(owner)
      .post('/api/templates', { ...base, fields: [{ name: 'topic', type: 'date' }] })
      .expect(400);

    // On update the merged template is checked: emptying a required text is refused.
    const created = await create(owner, {});
    const cleared = await as(owner)
      .put('/api/templates', { template_id: created.template_id, description: '' })
      .expect(400);
    expect(cleared.body.message).toBe('Please complete all the required fields to save.');
  });

  it('lets only staff admins make a template public', async () => {
    const res = await as(owner)
      .post('/api/templates', { ...base, public: true })
      .expect(403);
    expect(res.body.message).toBe('Only admins can make a template public.');
    const mine = await create(owner, {});
    const put = await as(owner)
      .put('/api/templates', { template_id: mine.template_id, public: true })
      .expect(403);
    expect(put.body.message).toBe('Only admins can make a template public.');
    await as(manager)
      .post('/api/templates', { ...base, public: true })
      .expect(403);
    const pub = await create(admin, { public: true });
    expect(pub.public).toBe(true);
  });

  it('shows own, public and organization templates; another user’s private one is 404', async () => {
    const u1 = await t.createUser();
    const u2 = await t.createUser();
    const orgId = await t.createOrganization();
    await t.addMember(orgId, u1.user_id, 3);
    await t.addMember(orgId, u2.user_id, 3);
    const scope = `?organization_id=${orgId}`;
    const personal = await create(u1, { name: 'V personal' });
    const inOrg = await create(u1, { name: 'V org' }, scope);
    const pub = await create(admin, { name: 'V public', public: true });
    expect(inOrg.organization_id).toBe(orgId);

    const mine = await as(u1).get('/api/templates?query=V%20&limit=200').expect(200);
    expect(names(mine.body).sort()).toEqual(['V personal', 'V public']);
    const org = await as(u2).get(`/api/templates${scope}&query=V%20&limit=200`).expect(200);
    expect(names(org.body).sort()).toEqual(['V org', 'V public']);

    await as(u2).get(`/api/templates/${personal.template_id}`).expect(404);
    await as(u2).put('/api/templates', { template_id: personal.template_id, name: 'x' }).expect(404);
    await as(u2).del(`/api/templates/${personal.template_id}`).expect(404);
    await as(u2).post('/api/templates/favorite', { template_id: personal.template_id }).expect(404);
    await as(u2).get(`/api/templates/${inOrg.template_id}`).expect(404);
    await as(u2).get(`/api/templates/${inOrg.template_id}${scope}`).expect(200);
    await as(u2).get(`/api/templates/${pub.template_id}`).expect(200);
    // Staff see any template by id.
    await as(manager).get(`/api/templates/${personal.template_id}`).expect(200);
    // Not a member: the guard refuses the scope.
    const outsider = await as(other).get(`/api/templates${scope}`);
    expect([403, 404]).toContain(outsider.status);

    const publicList = await as(other).get('/api/templates/public?query=V%20').expect(200);
    expect(names(publicList.body)).toEqual(['V public']);
    await as(owner).get('/api/templates/all').expect(403);
    const all = await as(manager).get('/api/templates/all?query=V%20').expect(200);
    expect(names(all.body).sort()).toEqual(['V org', 'V personal', 'V public']);
  });

  it('hides the prompt when show_prompt is off, except from the owner and staff', async () => {
    const hidden = await create(admin, { public: true, show_prompt: false, editable: true });
    const seen = await as(other).get(`/api/templates/${hidden.template_id}`).expect(200);
    expect(seen.body.template.content).toBeNull();
    expect(seen.body.template.fields).toHaveLength(1);
    expect((await as(admin).get(`/api/templates/${hidden.template_id}`)).body.template.content).toBe(
      'Write about [topic].',
    );
    // An editor who cannot see the prompt keeps it by leaving it out, and cannot flip the settings.
    const edited = await as(other)
      .put('/api/templates', { template_id: hidden.template_id, name: 'Edited' })
      .expect(200);
    expect(edited.body.template).toMatchObject({ name: 'Edited', content: null });
    const [row] = await t.db.query(`SELECT content FROM templates WHERE template_id = $1`, [
      hidden.template_id,
    ]);
    expect(row.content).toBe('Write about [topic].');
    const flip = await as(other)
      .put('/api/templates', { template_id: hidden.template_id, show_prompt: true })
      .expect(403);
    expect(flip.body.message).toBe('Only the owner or staff can change Editable and Show Prompt.');
  });

  it('lets the owner, a staff admin, or anyone on an editable template edit and delete', async () => {
    const locked = await create(admin, { public: true, name: 'Locked' });
    const lockedId = locked.template_id as number;
    const denied = await as(other).put('/api/templates', { template_id: lockedId, name: 'x' }).expect(403);
    expect(denied.body.code).toBe('template_forbidden');
    await as(other).del(`/api/templates/${lockedId}`).expect(403);
    await as(manager).put('/api/templates', { template_id: lockedId, name: 'x' }).expect(403);

    const ownerTpl = await create(owner, {});
    await as(admin)
      .put('/api/templates', { template_id: ownerTpl.template_id, name: 'By admin' })
      .expect(200);
    await as(admin).del(`/api/templates/${ownerTpl.template_id}`).expect(204);

    const editable = await create(admin, { public: true, editable: true });
    await as(other)
      .put('/api/templates', { template_id: editable.template_id, name: 'By other' })
      .expect(200);
    await as(other).del(`/api/templates/${editable.template_id}`).expect(204);
  });

  it('toggles favorites and filters by them', async () => {
    const user = await t.createUser();
    const a = await create(user, { name: 'Fav A' });
    await create(user, { name: 'Fav B' });
    const on = await as(user).post('/api/templates/favorite', { template_id: a.template_id }).expect(200);
    expect(on.body).toEqual({ favorite: true });
    const list = await as(user).get('/api/templates?favorites=true').expect(200);
    expect(names(list.body)).toEqual(['Fav A']);
    expect(list.body.templates[0].favorite).toBe(true);
    const off = await as(user).post('/api/templates/favorite', { template_id: a.template_id }).expect(200);
    expect(off.body).toEqual({ favorite: false });
    expect((await as(user).get('/api/templates?favorites=true')).body.total).toBe(0);
    await as(user).post('/api/templates/favorite', { template_id: 'x' }).expect(400);
  });

  it('lists tags and types with counts, and filters by them', async () => {
    const user = await t.createUser();
    await create(user, { name: 'T1', tags: 'seo,blog', type: 'Writing' });
    await create(user, { name: 'T2', tags: 'blog', type: 'Writing' });
    await create(user, { name: 'T3', type: 'Sales' });
    await create(user, { name: 'T4' });
    const tags = await as(user).get('/api/templates/tags').expect(200);
    expect(tags.body).toEqual({
      tags: [
        { tag: 'blog', templates: 2 },
        { tag: 'seo', templates: 1 },
      ],
      total: 2,
    });
    const types = await as(user).get('/api/templates/types').expect(200);
    expect(types.body).toEqual({
      types: [
        { type: 'Sales', templates: 1 },
        { type: 'Writing', templates: 2 },
      ],
      total: 2,
    });
    expect(names((await as(user).get('/api/templates/tag/blog?sortBy=name_asc')).body)).toEqual(['T1', 'T2']);
    expect(names((await as(user).get('/api/templates?tag=seo')).body)).toEqual(['T1']);
    const byType = await as(user).get('/api/templates/type/Writing?sortBy=name_asc').expect(200);
    expect(byType.body).toMatchObject({ total: 2, page: 1, limit: 24 });
    expect(names((await as(user).get('/api/templates?type=Sales')).body)).toEqual(['T3']);
  });

  it('pages by 24, sorts, and filters by language', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 26; i++)
      await create(user, { name: `Pg${String(i).padStart(2, '0')}`, language: i % 2 ? 'es' : 'en' });
    const first = await as(user).get('/api/templates?query=Pg').expect(200);
    expect(first.body).toMatchObject({ total: 26, page: 1, limit: 24 });
    expect(first.body.templates).toHaveLength(24);
    expect(first.body.templates[0].name).toBe('Pg25');
    const second = await as(user).get('/api/templates?query=Pg&page=2').expect(200);
    expect(names(second.body)).toEqual(['Pg01', 'Pg00']);
    expect(names((await as(user).get('/api/templates?query=Pg&sortBy=name_asc&limit=3')).body)).toEqual([
      'Pg00',
      'Pg01',
      'Pg02',
    ]);
    expect(names((await as(user).get('/api/templates?query=Pg&sortBy=name_desc&limit=2')).body)).toEqual([
      'Pg25',
      'Pg24',
    ]);
    const p03 = first.body.templates.find((x: { name: string }) => x.name === 'Pg03');
    await as(user)
      .put('/api/templates', { template_id: p03.template_id, description: 'touched' })
      .expect(200);
    expect(names((await as(user).get('/api/templates?query=Pg&sortBy=updatedAt_desc&limit=1')).body)).toEqual(
      ['Pg03'],
    );
    const es = await as(user).get('/api/templates?query=Pg&language=es').expect(200);
    expect(es.body.total).toBe(13);
    await as(user).get('/api/templates?query=Pg&language=fr').expect(400);
    const bad = await as(user).get('/api/templates?query=Pg&sortBy=oldest').expect(400);
    expect(bad.body.message).toBe(
      'sortBy must be one of createdAt_desc, updatedAt_desc, name_asc, name_desc.',
    );
  });

  it('sorts by the templates_default_sort setting when no sortBy is given', async () => {
    const user = await t.createUser();
    await create(user, { name: 'Ds b' });
    await create(user, { name: 'Ds a' });
    expect(names((await as(user).get('/api/templates?query=Ds%20')).body)).toEqual(['Ds a', 'Ds b']);
    await as(admin)
      .put('/api/appconfig', { config: [{ key: 'templates_default_sort', value: 'name_desc' }] })
      .expect(200);
    try {
      expect(names((await as(user).get('/api/templates?query=Ds%20')).body)).toEqual(['Ds b', 'Ds a']);
    } finally {
      await as(admin)
        .put('/api/appconfig', { config: [{ key: 'templates_default_sort', value: 'createdAt_desc' }] })
        .expect(200);
    }
  });

  it('answers 400, not 500, for bad ids', async () => {
    for (const bad of ['abc', '1.5', '0', '99999999999']) {
      const res = await as(owner).get(`/api/templates/${bad}`).expect(400);
      expect(res.body.code).toBe('invalid_id');
      await as(owner).del(`/api/templates/${bad}`).expect(400);
    }
    for (const template_id of ['x', 0, 99999999999, null]) {
      const res = await as(owner)
        .put('/api/templates', { ...base, template_id })
        .expect(400);
      expect(res.body.message).toBe('template_id must be a whole number.');
    }
  });
});
