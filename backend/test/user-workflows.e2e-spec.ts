import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessagesService } from '../src/modules/messages/messages.service';
import { RealtimeService } from '../src/modules/realtime/realtime.service';
import { LEASE_MS, UserWorkflowRunner } from '../src/modules/user-workflows/user-workflow-runner';
import { TemplatesService } from '../src/modules/templates/templates.service';
import { UserWorkflowsRepository } from '../src/modules/user-workflows/user-workflows.repository';
import { WordsService } from '../src/modules/words/words.service';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { startTestApp, TestApp, TestUser } from './harness';
import { ClientSocket, userSocket } from './sockets';

interface Step {
  user_workflow_template_id: number;
  order: number;
  conversation_id: number;
  template: { template_id: number; name: string; description: string } | null;
  status: 'pending' | 'generating' | 'done' | 'failed';
  error: string | null;
}
interface UserWorkflow {
  user_workflow_id: number;
  name: string;
  description: string;
  workflow_id: number | null;
  workflow: { workflow_id: number; name: string; description: string; tags: string } | null;
  values: Record<string, string>;
  user_workflow_templates: Step[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const OUTLINE = 'Write a [tone[formal/casual]] outline about [topic].';
const TWEET = 'Write a tweet about [topic] for [audience].';

describe('User workflows API', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let words: WordsService;
  let manager: TestUser;
  let admin: TestUser;
  let outline: number;
  let tweet: number;
  let workflowId: number;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1` });
    await t.app.listen(0);
    words = t.app.get(WordsService);
    manager = await t.createUser({ staff: 'manager' });
    admin = await t.createUser({ staff: 'admin' });
    outline = await template('Outline', OUTLINE);
    tweet = await template('Tweet', TWEET);
    const res = await as(manager)
      .post('/api/workflows', {
        name: 'Blog launch',
        description: 'Plan and announce a post.',
        tags: 'blog',
        template_ids: [outline, tweet],
      })
      .expect(201);
    workflowId = res.body.workflow.workflow_id as number;
  });
  beforeEach(() => fake.reset());
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const as = (who: TestUser) => ({
    get: (url: string) => t.http().get(url).set('Authorization', who.auth),
    post: (url: string, body: object = {}) => t.http().post(url).set('Authorization', who.auth).send(body),
    put: (url: string, body: object) => t.http().put(url).set('Authorization', who.auth).send(body),
    del: (url: string) => t.http().delete(url).set('Authorization', who.auth),
  });

  /** A public template (a workflow may use only templates its runners can see). */
  async function template(name: string, content: string): Promise<number> {
    const res = await as(admin)
      .post('/api/templates', { name, description: `${name} step`, content, public: true })
      .expect(201);
    return res.body.template.template_id as number;
  }

  /** A customer with words (or none). */
  async function customer(grant: number | null = 100_000): Promise<TestUser> {
    const user = await t.createUser();
    if (grant) await words.grant(user.user_id, { words: grant, source: 'gift' });
    return user;
  }

  async function start(user: TestUser, body: object = {}, scope = ''): Promise<UserWorkflow> {
    const res = await as(user)
      .post(`/api/user_workflows${scope}`, {
        workflow_id: workflowId,
        values: 'tone=casual, topic=cats, audience=kids',
        ...body,
      })
      .expect(201);
    return res.body.user_workflow as UserWorkflow;
  }

  const read = async (user: TestUser, id: number): Promise<UserWorkflow> =>
    (await as(user).get(`/api/user_workflows/${id}`).expect(200)).body.user_workflow as UserWorkflow;

  /** Polls the API until no step is pending or generating. */
  async function settled(user: TestUser, id: number, timeoutMs = 10_000): Promise<UserWorkflow> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const current = await read(user, id);
      if (current.user_workflow_templates.every((s) => s.status === 'done' || s.status === 'failed'))
        return current;
      if (Date.now() > until) throw new Error(`steps not settled: ${JSON.stringify(current)}`);
      await sleep(30);
    }
  }

  async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false): Promise<T> {
    const until = Date.now() + 10_000;
    for (;;) {
      const value = await check();
      if (value) return value;
      if (Date.now() > until) throw new Error('timed out waiting');
      await sleep(30);
    }
  }

  const messages = async (user: TestUser, conversationId: number) =>
    (await as(user).get(`/api/messages/conversation/${conversationId}`).expect(200)).body.messages as {
      role: string;
      content: string | null;
    }[];

  async function listen(user: TestUser): Promise<Record<string, unknown>[]> {
    const events: Record<string, unknown>[] = [];
    sockets.push(await userSocket(t.app, user, (s) => s.on('message', (payload) => events.push(payload))));
    return events;
  }

  it('starts a workflow: one conversation per step, generated in order with the values filled in', async () => {
    const user = await customer();
    const events = await listen(user);
    fake.reply({ text: 'The outline.' }, { text: 'The tweet.' });

    const started = await start(user);
    expect(started).toMatchObject({
      name: 'Blog launch',
      description: 'Plan and announce a post.',
      workflow_id: workflowId,
      workflow: {
        workflow_id: workflowId,
        name: 'Blog launch',
        description: 'Plan and announce a post.',
        tags: 'blog',
      },
      values: { tone: 'casual', topic: 'cats', audience: 'kids' },
    });
    expect(started.user_workflow_templates.map((s) => [s.order, s.template])).toEqual([
      [1, { template_id: outline, name: 'Outline', description: 'Outline step' }],
      [2, { template_id: tweet, name: 'Tweet', description: 'Tweet step' }],
    ]);

    const done = await settled(user, started.user_workflow_id);
    expect(done.user_workflow_templates.map((s) => [s.status, s.error])).toEqual([
      ['done', null],
      ['done', null],
    ]);
    expect(fake.requests.map((r) => r.messages.at(-1)?.content)).toEqual([
      'Write a casual outline about cats.',
      'Write a tweet about cats for kids.',
    ]);
    const [first, second] = done.user_workflow_templates;
    // As with template apply, the user message shows the template's name; the filled prompt is stored hidden.
    expect((await messages(user, first.conversation_id)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Outline'],
      ['assistant', 'The outline.'],
    ]);
    expect((await messages(user, second.conversation_id)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Tweet'],
      ['assistant', 'The tweet.'],
    ]);
    const hidden = (await t.db.query(
      `SELECT prompt FROM messages WHERE conversation_id = $1 AND role = 'user'`,
      [first.conversation_id],
    )) as { prompt: string }[];
    expect(hidden).toEqual([{ prompt: 'Write a casual outline about cats.' }]);
    for (const m of await messages(user, first.conversation_id)) expect(m).not.toHaveProperty('prompt');
    const conversation = await as(user)
      .get(`/api/conversations/conversation/${first.conversation_id}`)
      .expect(200);
    expect(conversation.body.conversation.name).toBe('Blog launch – Outline');

    // The socket told every status change, step by step.
    await waitFor(() => events.length >= 4);
    expect(events).toEqual([
      { ...ids(started, first), status: 'generating' },
      { ...ids(started, first), status: 'done' },
      { ...ids(started, second), status: 'generating' },
      { ...ids(started, second), status: 'done' },
    ]);

    const list = await as(user).get('/api/user_workflows').expect(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 24 });
    expect(list.body.user_workflows[0]).toEqual(done);
  });

  const ids = (uw: UserWorkflow, step: Step) => ({
    user_workflow_id: uw.user_workflow_id,
    user_workflow_template_id: step.user_workflow_template_id,
    conversation_id: step.conversation_id,
  });

  it('takes the values as an object, with its own name and description', async () => {
    const user = await customer();
    const started = await start(user, {
      values: { tone: 'formal', topic: 'dogs, cats', audience: 'vets' },
      name: 'My launch',
      description: 'For the clinic',
    });
    expect(started).toMatchObject({
      name: 'My launch',
      description: 'For the clinic',
      values: { tone: 'formal', topic: 'dogs, cats', audience: 'vets' },
    });
    await settled(user, started.user_workflow_id);
    expect(fake.requests.map((r) => r.messages.at(-1)?.content)).toEqual([
      'Write a formal outline about dogs, cats.',
      'Write a tweet about dogs, cats for vets.',
    ]);
  });

  it('answers 400 for malformed or missing values, 404 for an unknown workflow, and starts nothing', async () => {
    const user = await customer();
    const malformed = await as(user)
      .post('/api/user_workflows', { workflow_id: workflowId, values: 'tone=formal, cats' })
      .expect(400);
    expect(malformed.body).toMatchObject({
      code: 'invalid_values',
      message: 'Values must look like name=value, separated by commas.',
    });
    const missing = await as(user)
      .post('/api/user_workflows', { workflow_id: workflowId, values: 'tone=formal, topic= ' })
      .expect(400);
    expect(missing.body).toMatchObject({
      code: 'missing_values',
      message: 'Every field needs a value. Missing: topic, audience.',
      missing: ['topic', 'audience'],
    });
    const notText = await as(user)
      .post('/api/user_workflows', { workflow_id: workflowId, values: { tone: { a: 1 } } })
      .expect(400);
    expect(notText.body.code).toBe('invalid_values');
    const noValues = await as(user).post('/api/user_workflows', { workflow_id: workflowId }).expect(400);
    expect(noValues.body.message).toBe('Values must look like name=value, separated by commas.');
    const badId = await as(user).post('/api/user_workflows', { workflow_id: 'x', values: '' }).expect(400);
    expect(badId.body.message).toBe('workflow_id must be a whole number.');
    const unknown = await as(user)
      .post('/api/user_workflows', { workflow_id: 999999, values: 'topic=cats' })
      .expect(404);
    expect(unknown.body.code).toBe('workflow_not_found');
    const name = await as(user)
      .post('/api/user_workflows', {
        workflow_id: workflowId,
        values: 'tone=a,topic=b,audience=c',
        name: ' ',
      })
      .expect(400);
    expect(name.body.message).toBe("The name can't be empty.");

    const [{ count }] = await t.db.query(
      `SELECT count(*)::int AS count FROM conversations WHERE user_id = $1`,
      [user.user_id],
    );
    expect(count).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('answers 412 without access and creates nothing; staff need no words', async () => {
    const user = await customer(null);
    const res = await as(user)
      .post('/api/user_workflows', { workflow_id: workflowId, values: 'tone=a,topic=b,audience=c' })
      .expect(412);
    expect(res.body).toMatchObject({
      code: 'no_access',
      message: 'Creating more content with the product requires an active subscription.',
    });
    const [{ count }] = await t.db.query(
      `SELECT count(*)::int AS count FROM conversations WHERE user_id = $1`,
      [user.user_id],
    );
    expect(count).toBe(0);

    const started = await start(manager);
    const done = await settled(manager, started.user_workflow_id);
    expect(done.user_workflow_templates.map((s) => s.status)).toEqual(['done', 'done']);
  });

  it('marks a failed step failed with the reason and still generates the later ones', async () => {
    const user = await customer();
    fake.reply(
      { fail: { status: 401, message: 'Incorrect API key provided.', code: 'invalid_api_key' } },
      { text: 'The tweet.' },
    );
    const started = await start(user);
    const done = await settled(user, started.user_workflow_id);
    expect(done.user_workflow_templates.map((s) => [s.status, s.error])).toEqual([
      ['failed', 'Open AI Error: Incorrect API key provided.'],
      ['done', null],
    ]);
    // The failed answer is not kept (nor charged); the prompt stays.
    expect(
      (await messages(user, done.user_workflow_templates[0].conversation_id)).map((m) => m.role),
    ).toEqual(['user']);
  });

  it('regenerates one step with the current values: 202, old messages cleared, new answer', async () => {
    const user = await customer();
    fake.reply({ text: 'Old outline.' }, { text: 'Old tweet.' });
    const started = await start(user);
    await settled(user, started.user_workflow_id);
    const [first, second] = started.user_workflow_templates;

    const changed = await as(user)
      .put('/api/user_workflows', {
        user_workflow_id: started.user_workflow_id,
        values: 'tone=formal,topic=owls,audience=kids',
        name: 'Renamed',
      })
      .expect(200);
    expect(changed.body.user_workflow).toMatchObject({
      name: 'Renamed',
      values: { tone: 'formal', topic: 'owls', audience: 'kids' },
    });
    await sleep(100);
    expect(fake.requests).toHaveLength(2); // changing values regenerates nothing

    const events = await listen(user);
    fake.reply({ text: 'New outline.', chunks: 4, delayMs: 30 });
    const res = await as(user)
      .post(`/api/user_workflows/${started.user_workflow_id}/regenerate/${first.conversation_id}`)
      .expect(202);
    const step = (res.body.user_workflow as UserWorkflow).user_workflow_templates[0];
    expect(['pending', 'generating']).toContain(step.status);

    // While it runs, a second regeneration is refused.
    const busy = await as(user)
      .post(`/api/user_workflows/${started.user_workflow_id}/regenerate/${first.conversation_id}`)
      .expect(409);
    expect(busy.body.code).toBe('step_generating');

    const done = await settled(user, started.user_workflow_id);
    expect(done.user_workflow_templates.map((s) => s.status)).toEqual(['done', 'done']);
    expect((await messages(user, first.conversation_id)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Outline'],
      ['assistant', 'New outline.'],
    ]);
    expect(fake.requests.at(-1)?.messages.at(-1)?.content).toBe('Write a formal outline about owls.');
    expect((await messages(user, second.conversation_id)).map((m) => m.content)).toEqual([
      'Tweet',
      'Old tweet.',
    ]);
    await waitFor(() => events.some((e) => e.status === 'done'));
    expect(events.map((e) => e.status)).toEqual(['pending', 'generating', 'done']);
    expect(events[0]).toEqual({ ...ids(started, first), status: 'pending' });
  });

  it('refuses to regenerate a step that is still waiting or generating (409), and without access (412)', async () => {
    const user = await customer();
    fake.reply({ text: 'Slow outline.', chunks: 5, delayMs: 80 }, { text: 'Tweet.' });
    const started = await start(user);
    const [first, second] = started.user_workflow_templates;
    const url = (step: Step) =>
      `/api/user_workflows/${started.user_workflow_id}/regenerate/${step.conversation_id}`;
    expect((await as(user).post(url(first)).expect(409)).body).toMatchObject({
      code: 'step_generating',
      message: 'This step is still being generated.',
    });
    await as(user).post(url(second)).expect(409);
    await settled(user, started.user_workflow_id);

    await t.db.query(`DELETE FROM word_ledger WHERE user_id = $1`, [user.user_id]);
    const res = await as(user).post(url(first)).expect(412);
    expect(res.body.code).toBe('no_access');
  });

  it('answers 404 for another user’s user workflow, another scope, or a conversation that is not a step', async () => {
    const owner = await customer();
    const stranger = await customer();
    const started = await start(owner);
    await settled(owner, started.user_workflow_id);
    const id = started.user_workflow_id;
    const step = started.user_workflow_templates[0];

    await as(stranger).get(`/api/user_workflows/${id}`).expect(404);
    await as(stranger).put('/api/user_workflows', { user_workflow_id: id, name: 'Mine' }).expect(404);
    await as(stranger).post(`/api/user_workflows/${id}/regenerate/${step.conversation_id}`).expect(404);
    await as(stranger).del(`/api/user_workflows/${id}`).expect(404);
    expect((await as(stranger).get('/api/user_workflows').expect(200)).body.total).toBe(0);

    const other = await as(owner).post('/api/conversations', { name: 'Unrelated' }).expect(201);
    await as(owner)
      .post(`/api/user_workflows/${id}/regenerate/${other.body.conversation.conversation_id}`)
      .expect(404);
    await as(owner).post(`/api/user_workflows/${id}/regenerate/abc`).expect(400);

    // Started in an organization, it belongs to that scope only.
    const org = await t.createOrganization();
    await t.addMember(org, owner.user_id, 3);
    const inOrg = await start(owner, {}, `?organization_id=${org}`);
    await settled(owner, inOrg.user_workflow_id).catch(() => undefined);
    await as(owner).get(`/api/user_workflows/${inOrg.user_workflow_id}`).expect(404);
    const orgList = await as(owner).get(`/api/user_workflows?organization_id=${org}`).expect(200);
    expect(orgList.body.user_workflows.map((u: UserWorkflow) => u.user_workflow_id)).toEqual([
      inOrg.user_workflow_id,
    ]);
    await waitFor(async () => {
      const res = await as(owner).get(`/api/user_workflows/${inOrg.user_workflow_id}?organization_id=${org}`);
      return (res.body.user_workflow as UserWorkflow).user_workflow_templates.every(
        (s) => s.status === 'done',
      );
    });
  });

  it('checks new values on change: missing ones are refused and nothing changes', async () => {
    const user = await customer();
    const started = await start(user);
    await settled(user, started.user_workflow_id);
    const res = await as(user)
      .put('/api/user_workflows', { user_workflow_id: started.user_workflow_id, values: 'tone=formal' })
      .expect(400);
    expect(res.body).toMatchObject({ code: 'missing_values', missing: ['topic', 'audience'] });
    await as(user)
      .put('/api/user_workflows', { user_workflow_id: started.user_workflow_id, values: 'nope' })
      .expect(400);
    expect((await read(user, started.user_workflow_id)).values).toEqual({
      tone: 'casual',
      topic: 'cats',
      audience: 'kids',
    });
  });

  it('deletes a user workflow with its conversations, stopping a step that is generating', async () => {
    const user = await customer();
    fake.reply({ hang: true });
    const started = await start(user);
    await waitFor(() => fake.requests.length === 1);
    const conversationIds = started.user_workflow_templates.map((s) => s.conversation_id);

    await as(user).del(`/api/user_workflows/${started.user_workflow_id}`).expect(204);
    await as(user).get(`/api/user_workflows/${started.user_workflow_id}`).expect(404);
    const left = await t.db.query(
      `SELECT conversation_id FROM conversations WHERE conversation_id = ANY($1)`,
      [conversationIds],
    );
    expect(left).toEqual([]);
    await fake.requests[0].closed; // the generation was stopped
    expect(fake.requests[0].closedByClient).toBe(true);
    await sleep(200);
    expect(fake.requests).toHaveLength(1); // the later step never ran
  });

  it('deletes the files attached to its conversations with a user workflow (row and stored bytes)', async () => {
    const user = await customer();
    const started = await start(user);
    await settled(user, started.user_workflow_id);
    const conversationId = started.user_workflow_templates[0].conversation_id;
    const attached = await t
      .http()
      .post(`/api/conversations/file/${conversationId}`)
      .set('Authorization', user.auth)
      .attach('file', Buffer.from('Notes for the outline'), 'notes.txt')
      .expect(201);
    const fileId = attached.body.conversation.file.file_id as number;
    const file = await as(user).get(`/api/files/${fileId}`).expect(200);
    const bytes = join(t.env.dataDir, 'files', (file.body.file.src as string).split('/').pop()!);
    expect(existsSync(bytes)).toBe(true);

    await as(user).del(`/api/user_workflows/${started.user_workflow_id}`).expect(204);
    await as(user).get(`/api/files/${fileId}`).expect(404);
    expect(await t.db.query(`SELECT 1 FROM files WHERE file_id = $1`, [fileId])).toEqual([]);
    expect(
      await t.db.query(`SELECT 1 FROM conversation_files WHERE conversation_id = $1`, [conversationId]),
    ).toEqual([]);
    expect(existsSync(bytes)).toBe(false);
  });

  it('searches the list by name, and keeps a run whose workflow or template is deleted', async () => {
    const user = await customer();
    const doomed = await template('Doomed', 'About [subject].');
    const created = await as(manager)
      .post('/api/workflows', { name: 'Short-lived', template_ids: [doomed] })
      .expect(201);
    const wf = created.body.workflow.workflow_id as number;
    const run = await start(user, { workflow_id: wf, values: 'subject=moths', name: 'Moth run' });
    await start(user, { name: 'Other run' });
    await settled(user, run.user_workflow_id);

    const found = await as(user).get('/api/user_workflows?query=moth').expect(200);
    expect(found.body.user_workflows.map((u: UserWorkflow) => u.name)).toEqual(['Moth run']);
    expect(found.body.total).toBe(1);

    await as(manager).del(`/api/workflows/${wf}`).expect(204);
    await as(admin).del(`/api/templates/${doomed}`).expect(204);
    const kept = await read(user, run.user_workflow_id);
    expect(kept).toMatchObject({ workflow_id: null, workflow: null, values: { subject: 'moths' } });
    expect(kept.user_workflow_templates[0]).toMatchObject({ template: null, status: 'done' });

    // Its steps keep their prompt, so a step can still be regenerated.
    fake.reset();
    const step = kept.user_workflow_templates[0];
    await as(user)
      .post(`/api/user_workflows/${run.user_workflow_id}/regenerate/${step.conversation_id}`)
      .expect(202);
    await settled(user, run.user_workflow_id);
    expect(fake.requests.at(-1)?.messages.at(-1)?.content).toBe('About moths.');
  });

  it('refuses (403) a workflow with a template its runner cannot see, and starts nothing', async () => {
    const owner = await customer();
    const mine = await as(owner)
      .post('/api/templates', {
        name: 'Secret recipe',
        description: 'Mine',
        content: 'My secret about [topic].',
      })
      .expect(201);
    const templateId = mine.body.template.template_id as number;
    const created = await as(manager)
      .post('/api/workflows', { name: 'Leaky', template_ids: [outline, templateId] })
      .expect(201);
    const wf = created.body.workflow.workflow_id as number;
    const other = await customer();
    const before = (await as(other).get('/api/conversations').expect(200)).body.total as number;
    const res = await as(other)
      .post('/api/user_workflows', { workflow_id: wf, values: 'tone=casual, topic=cats' })
      .expect(403);
    expect(res.body).toMatchObject({
      code: 'template_forbidden',
      message: 'This workflow uses templates you do not have access to, so you cannot run it.',
    });
    expect(res.body.message).not.toContain('secret');
    expect((await as(other).get('/api/conversations').expect(200)).body.total).toBe(before);
    expect(fake.requests).toHaveLength(0);
    // The template's owner sees it, so may run the workflow.
    fake.reply({ text: 'One.' }, { text: 'Two.' });
    const run = await start(owner, { workflow_id: wf, values: 'tone=casual, topic=cats' });
    await settled(owner, run.user_workflow_id);
    expect(fake.requests.map((r) => r.messages.at(-1)?.content)).toEqual([
      'Write a casual outline about cats.',
      'My secret about cats.',
    ]);
  });

  it('refuses to start a workflow whose templates were all deleted', async () => {
    const user = await customer();
    const doomed = await template('Gone', 'About [x].');
    const created = await as(manager)
      .post('/api/workflows', { name: 'Empty', template_ids: [doomed] })
      .expect(201);
    await as(admin).del(`/api/templates/${doomed}`).expect(204);
    const res = await as(user)
      .post('/api/user_workflows', { workflow_id: created.body.workflow.workflow_id, values: '' })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'workflow_empty',
      message: 'This workflow has no templates to run.',
    });
  });

  it('fails the steps a stopped process left once their lease lapses, never the ones a process is running', async () => {
    const user = await customer();
    fake.reply({ hang: true });
    const started = await start(user);
    await waitFor(() => fake.requests.length === 1);
    const statuses = async () =>
      (await read(user, started.user_workflow_id)).user_workflow_templates.map((s) => [s.status, s.error]);
    const age = (seconds: number) =>
      t.db.query(
        `UPDATE user_workflow_templates SET "updatedAt" = now() - make_interval(secs => $2) WHERE user_workflow_id = $1`,
        [started.user_workflow_id, seconds],
      );
    const runner = t.app.get(UserWorkflowRunner);
    // Even with a lapsed lease, the process running the steps does not fail its own.
    await age(LEASE_MS / 1000 + 60);
    await runner.sweepAbandoned();
    expect(await statuses()).toEqual([
      ['generating', null],
      ['pending', null],
    ]);
    // Another instance (holding nothing) leaves them alone while the lease is fresh...
    await runner.renewLeases();
    const otherInstance = new UserWorkflowRunner(
      t.app.get(UserWorkflowsRepository),
      t.app.get(MessagesService),
      t.app.get(RealtimeService),
      t.app.get(TemplatesService),
    );
    await otherInstance.sweepAbandoned();
    expect((await statuses()).map(([status]) => status)).toEqual(['generating', 'pending']);
    // ...and fails them, telling the user, once nobody has touched them for the lease time.
    const events = await listen(user);
    await age(LEASE_MS / 1000 + 1);
    await otherInstance.sweepAbandoned();
    expect(await statuses()).toEqual([
      ['failed', 'Interrupted. Regenerate this step.'],
      ['failed', 'Interrupted. Regenerate this step.'],
    ]);
    await waitFor(() => events.length === 2);
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_workflow_id: started.user_workflow_id, status: 'failed' }),
      ]),
    );
    await as(user).del(`/api/user_workflows/${started.user_workflow_id}`).expect(204);
    await fake.requests[0].closed;
    await sleep(200); // the run notices its step is gone before the app closes
  });
});
