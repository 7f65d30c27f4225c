import { makeDocx } from '../src/modules/files/testing/document-builders';
import { PNG } from '../src/modules/files/testing/sample-files';
import { OutputsService } from '../src/modules/trainings/outputs.service';
import type { TestUser } from './harness';
import { MessagesKit, startMessagesKit, waitFor } from './messages-kit';

const PREMIUM = 'This is a premium feature. Please, upgrade your account.';
const FACT = 'Every Bluefin newsletter opens with the greeting Ahoy crew and closes with Fair winds.';
/** A dataset of example posts in JSON lines, the planted fact among them. */
const dataset = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      prompt: `Write post ${i} about the harbour`,
      completion:
        i === Math.floor(n / 2)
          ? FACT
          : `Post ${i}: the harbour master counted boats, checked ropes and wrote a cheerful note for the crew.`,
    }),
  ).join('\n');

interface Training {
  training_id: number;
  avatar_id: number;
  state: string;
  stage: string | null;
  progress: number;
  error: string | null;
  style_guide: string;
  avatar_file_id: number | null;
}

describe('Trainings and outputs', () => {
  let k: MessagesKit;
  let owner: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    k = await startMessagesKit();
    owner = await k.customer(100_000);
    admin = await k.t.createUser({ staff: 'admin' });
  });
  afterAll(() => k.close());
  beforeEach(() => k.fake.reset());

  const as = (who: TestUser, scope?: number) => {
    const q = (path: string) =>
      scope ? `${path}${path.includes('?') ? '&' : '?'}organization_id=${scope}` : path;
    return {
      get: (path: string) => k.t.http().get(q(path)).set('Authorization', who.auth),
      post: (path: string, body: object) =>
        k.t.http().post(q(path)).set('Authorization', who.auth).send(body),
      put: (path: string, body: object) => k.t.http().put(q(path)).set('Authorization', who.auth).send(body),
      delete: (path: string) => k.t.http().delete(q(path)).set('Authorization', who.auth),
      upload: (path: string, data: Buffer, name: string) =>
        k.t.http().post(q(path)).set('Authorization', who.auth).attach('file', data, name),
    };
  };

  async function avatarOf(who: TestUser, scope?: number) {
    const res = await as(who, scope).post('/api/avatars', { name: 'Harbour voice' }).expect(201);
    return res.body.avatar as { avatar_id: number; assistant_id: string };
  }

  async function fileOf(who: TestUser, data: Buffer, name: string) {
    const res = await as(who).upload('/api/files', data, name).expect(201);
    return (res.body.file ?? res.body).file_id as number;
  }

  async function trainingOf(who: TestUser, text = dataset(20), scope?: number) {
    const avatar = await avatarOf(who, scope);
    const file_id = await fileOf(who, Buffer.from(text), 'posts.jsonl');
    const res = await as(who, scope)
      .post('/api/trainings', { name: ' Harbour posts ', avatar_id: avatar.avatar_id, file_id })
      .expect(201);
    return res.body.training as Training;
  }

  async function settled(who: TestUser, id: number, timeoutMs = 20_000): Promise<Training> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await as(who).get(`/api/trainings/${id}`).expect(200);
      const t = res.body.training as Training;
      if (['ready', 'failed'].includes(t.state)) return t;
      if (Date.now() > deadline) throw new Error(`Training not settled: ${JSON.stringify(t)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('executes a training: the dataset becomes the avatar’s knowledge and a style guide, with progress events', async () => {
    const { events } = await k.listen(owner);
    const training = await trainingOf(owner);
    expect(training).toMatchObject({ name: 'Harbour posts', state: 'draft', progress: 0, style_guide: '' });
    k.fake.defaultReply = { text: 'Notes: short cheerful sentences about boats.' };
    k.fake.reply(
      { text: 'Notes A: cheerful.' },
      { text: 'Notes B: nautical words.' },
      { text: 'GUIDE: Write short cheerful posts. Open with Ahoy crew.' },
    );
    const before = await k.balance(owner);
    const started = await as(owner)
      .post('/api/trainings/execute', { training_id: training.training_id })
      .expect(200);
    expect(started.body.training.state).toBe('queued');
    // A second run while one is on is refused.
    const busy = await as(owner)
      .post('/api/trainings/sync', { training_id: training.training_id })
      .expect(409);
    expect(busy.body.code).toBe('training_busy');

    const done = await settled(owner, training.training_id);
    expect(done).toMatchObject({ state: 'ready', stage: 'done', progress: 100, error: null });
    // The dataset is small: one window of notes, then the guide.
    expect(done.style_guide).toBe('Notes B: nautical words.');
    expect(k.fake.requests.filter((r) => r.stream).length).toBe(2);
    // The dataset went to the model as data, never as system text.
    const notesRequest = k.fake.requests[0];
    expect(
      notesRequest.messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join(),
    ).not.toContain('harbour master');
    expect(notesRequest.messages.some((m) => m.role === 'user' && m.content.includes('It is data'))).toBe(
      true,
    );
    // Every step was charged.
    expect(await k.balance(owner)).toBeLessThan(before);
    const debits = await k.debits(owner);
    expect(debits.filter((d) => d.source === 'training')).toHaveLength(2);

    // Progress arrived on the socket, ending ready.
    const progress = events.filter((e) => e.event === 'training_progress').map((e) => e.payload);
    expect(progress[0]).toMatchObject({ training_id: training.training_id, state: 'queued' });
    expect(progress.at(-1)).toMatchObject({ state: 'ready', progress: 100 });

    // The avatar now knows the dataset: retrieval returns the passage holding the planted fact.
    const avatar = await as(owner).get(`/api/avatars/${done.avatar_id}`).expect(200);
    expect(avatar.body.avatar.avatar_files).toEqual([
      expect.objectContaining({ avatar_file_id: done.avatar_file_id, index_state: 'ready' }),
    ]);
    const passages = await as(owner)
      .get(
        `/api/avatars/${done.avatar_id}/passages?question=${encodeURIComponent('newsletter greeting Ahoy')}`,
      )
      .expect(200);
    expect(passages.body.passages[0].passage).toContain('Ahoy crew');

    // Sync reads the file again (no model step) and keeps the one knowledge file.
    const synced = await as(owner)
      .post('/api/trainings/sync', { training_id: training.training_id })
      .expect(200);
    expect(synced.body.training.state).toBe('queued');
    const afterSync = await settled(owner, training.training_id);
    expect(afterSync.state).toBe('ready');
    expect(afterSync.style_guide).toBe('Notes B: nautical words.');
    const again = await as(owner).get(`/api/avatars/${done.avatar_id}`).expect(200);
    expect(again.body.avatar.avatar_files).toHaveLength(1);
  });

  it('outputs: generated by a training (its style guide as data), streamed, rated, edited, listed, deleted; ratings refine', async () => {
    const training = await trainingOf(owner);
    k.fake.reply({ text: 'Notes.' }, { text: 'GUIDE: be brief.' });
    await as(owner).post('/api/trainings/execute', { training_id: training.training_id }).expect(200);
    await settled(owner, training.training_id);
    const { events } = await k.listen(owner);
    k.fake.reset();
    k.fake.reply({ text: 'Ahoy crew, the boats are in.', chunks: 3 });
    const made = await as(owner)
      .post('/api/outputs/generate', { training_id: training.training_id, prompt: 'A post about boats' })
      .expect(201);
    const output = made.body.output;
    expect(output).toMatchObject({ status: 'generating', content: null, training_id: training.training_id });
    const end = await waitFor(() =>
      events.find((e) => e.event === 'output' && e.payload.done && e.payload.output_id === output.output_id),
    );
    expect(end.payload).toMatchObject({ content: 'Ahoy crew, the boats are in.', status: 'complete' });
    const streamed = events
      .filter((e) => e.event === 'output' && !e.payload.done)
      .map((e) => e.payload.content)
      .join('');
    expect(streamed).toBe('Ahoy crew, the boats are in.');
    const request = k.fake.requests[0];
    expect(request.messages.some((m) => m.role === 'user' && m.content.includes('GUIDE: be brief.'))).toBe(
      true,
    );
    expect(
      request.messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join(),
    ).not.toContain('GUIDE');

    // Listed by training and by avatar, searchable.
    const byTraining = await as(owner)
      .get(`/api/outputs/training/${training.training_id}?query=boats`)
      .expect(200);
    expect(byTraining.body.outputs.map((o: { output_id: number }) => o.output_id)).toEqual([
      output.output_id,
    ]);
    expect(byTraining.body.outputs[0].content).toBe('Ahoy crew, the boats are in.');
    const byAvatar = await as(owner).get(`/api/outputs/avatar/${training.avatar_id}?query=nothing-like-this`);
    expect(byAvatar.body).toMatchObject({ outputs: [], total: 0 });

    // Refine needs a rating first.
    const unrated = await as(owner)
      .post('/api/trainings/refine', { training_id: training.training_id })
      .expect(400);
    expect(unrated.body.code).toBe('training_nothing_rated');
    const rated = await as(owner)
      .post('/api/outputs/rate', { output_id: output.output_id, rating: 'down', note: 'Too salty' })
      .expect(200);
    expect(rated.body.output).toMatchObject({ rating: 'down', rating_note: 'Too salty' });
    await as(owner).post('/api/outputs/rate', { output_id: output.output_id, rating: 'meh' }).expect(400);

    k.fake.reply({ text: 'GUIDE v2: be brief, fewer sea words.' });
    const refined = await as(owner)
      .post('/api/trainings/refine', { training_id: training.training_id })
      .expect(200);
    expect(refined.body.training.style_guide).toBe('GUIDE v2: be brief, fewer sea words.');
    expect(refined.body.training.refined_at).not.toBeNull();
    const refineRequest = k.fake.requests.at(-1)!;
    expect(refineRequest.messages.some((m) => m.content.includes('rated down; note: Too salty'))).toBe(true);

    // Edited, kept by hand, followed up with a message, deleted.
    const edited = await as(owner)
      .put('/api/outputs', { output_id: output.output_id, content: 'Ahoy!' })
      .expect(200);
    expect(edited.body.output.content).toBe('Ahoy!');
    const kept = await as(owner)
      .post('/api/outputs', { avatar_id: training.avatar_id, prompt: 'Mine', content: 'Written by hand' })
      .expect(201);
    expect(kept.body.output).toMatchObject({ status: 'complete', training_id: null });
    k.fake.reply({ text: 'Ahoy, shorter.' });
    const followed = await as(owner)
      .post('/api/outputs/message', { output_id: output.output_id, message: 'Shorter please' })
      .expect(201);
    await waitFor(() =>
      events.find(
        (e) =>
          e.event === 'output' && e.payload.done && e.payload.output_id === followed.body.output.output_id,
      ),
    );
    const followRequest = k.fake.requests.at(-1)!;
    const conversation = followRequest.messages.filter(
      (m) => m.role !== 'system' && !m.content.includes('It is data'),
    );
    expect(conversation.map((m) => m.content)).toEqual(['A post about boats', 'Ahoy!', 'Shorter please']);
    await as(owner).delete(`/api/outputs/${kept.body.output.output_id}`).expect(204);
    await as(owner).delete(`/api/outputs/${kept.body.output.output_id}`).expect(404);
    const rows = await k.t.db.query('SELECT content, status FROM outputs WHERE output_id = $1', [
      followed.body.output.output_id,
    ]);
    expect(rows).toEqual([{ content: 'Ahoy, shorter.', status: 'complete' }]);
  });

  it('an output whose writer stopped (no lease renewal) ends failed and its user is told', async () => {
    const { events } = await k.listen(owner);
    const avatar = await avatarOf(owner);
    const kept = await as(owner)
      .post('/api/outputs', { avatar_id: avatar.avatar_id, prompt: 'p', content: 'c' })
      .expect(201);
    const id = kept.body.output.output_id as number;
    // As an instance that died mid-generation leaves it: generating, last renewed a minute ago.
    await k.t.db.query(
      `UPDATE outputs SET status = 'generating', content = NULL, "updatedAt" = now() - interval '1 minute' WHERE output_id = $1`,
      [id],
    );
    const outputs = k.t.app.get(OutputsService);
    // One this instance is still writing is left alone.
    expect(await outputs.failLapsed([`output:${id}`])).toBe(0);
    expect(await outputs.failLapsed([])).toBeGreaterThanOrEqual(1);
    const [row] = await k.t.db.query('SELECT status FROM outputs WHERE output_id = $1', [id]);
    expect(row.status).toBe('failed');
    await waitFor(() =>
      events.find((e) => e.event === 'output' && e.payload.output_id === id && e.payload.status === 'failed'),
    );
  });

  it('keeps trainings and outputs to their owner, scope and organization; only admins make one public', async () => {
    const training = await trainingOf(owner);
    const other = await k.customer();
    await as(other).get(`/api/trainings/${training.training_id}`).expect(404);
    await as(other).put('/api/trainings', { training_id: training.training_id, name: 'x' }).expect(404);
    await as(other).post('/api/trainings/execute', { training_id: training.training_id }).expect(404);
    await as(other).delete(`/api/trainings/${training.training_id}`).expect(404);
    await as(other).get(`/api/outputs/training/${training.training_id}`).expect(404);
    await as(other).get(`/api/outputs/avatar/${training.avatar_id}`).expect(404);
    await as(other)
      .post('/api/outputs/generate', { training_id: training.training_id, prompt: 'Hi' })
      .expect(404);
    expect((await as(other).get('/api/trainings').expect(200)).body.total).toBe(0);
    // Another user's avatar or file cannot be trained.
    const otherFile = await fileOf(other, Buffer.from('some text'), 'a.txt');
    await as(owner)
      .post('/api/trainings', { name: 'x', avatar_id: training.avatar_id, file_id: otherFile })
      .expect(404);
    await as(other)
      .post('/api/trainings', { name: 'x', avatar_id: training.avatar_id, file_id: otherFile })
      .expect(404);
    const mine = await as(owner).post('/api/outputs', {
      avatar_id: training.avatar_id,
      prompt: 'p',
      content: 'c',
    });
    await as(other).put('/api/outputs', { output_id: mine.body.output.output_id, content: 'x' }).expect(404);
    await as(other)
      .post('/api/outputs/rate', { output_id: mine.body.output.output_id, rating: 'up' })
      .expect(404);
    await as(other).delete(`/api/outputs/${mine.body.output.output_id}`).expect(404);

    // Only staff admins make a training public; then everyone sees it in the community list.
    const refused = await as(owner).put('/api/trainings', {
      training_id: training.training_id,
      public: true,
    });
    expect(refused.status).toBe(403);
    await as(admin).put('/api/trainings', { training_id: training.training_id, public: true }).expect(200);
    const community = await as(other).get('/api/trainings/public/all').expect(200);
    expect(community.body.trainings.map((t: Training) => t.training_id)).toContain(training.training_id);
    const seen = await as(other).get(`/api/trainings/${training.training_id}`).expect(200);
    expect(seen.body.training.can_manage).toBe(false);
    await as(other).put('/api/trainings', { training_id: training.training_id, name: 'x' }).expect(403);

    // Organization scope: members see the organization's trainings there, not in Personal.
    const org = await k.t.createOrganization('Training Org');
    const member = await k.customer();
    const colleague = await k.customer();
    await k.t.addMember(org, member.user_id, 3);
    await k.t.addMember(org, colleague.user_id, 3);
    const orgTraining = await trainingOf(member, dataset(5), org);
    await as(member).get(`/api/trainings/${orgTraining.training_id}`).expect(404);
    const list = await as(colleague, org).get('/api/trainings').expect(200);
    expect(list.body.trainings.map((t: Training) => t.training_id)).toEqual([orgTraining.training_id]);
    expect(list.body.own_key_pays).toBe(false);
    await as(colleague, org)
      .put('/api/trainings', { training_id: orgTraining.training_id, name: 'x' })
      .expect(403);
    // Outputs are their writer's, in the scope written.
    const orgOutput = await as(member, org)
      .post('/api/outputs', { training_id: orgTraining.training_id, prompt: 'p', content: 'c' })
      .expect(201);
    await as(member)
      .put('/api/outputs', { output_id: orgOutput.body.output.output_id, content: 'x' })
      .expect(404);
    expect(
      (await as(colleague, org).get(`/api/outputs/training/${orgTraining.training_id}`).expect(200)).body
        .total,
    ).toBe(0);

    // Deleting a training stops it and removes its outputs; the avatar keeps what it learned.
    await as(owner).delete(`/api/trainings/${training.training_id}`).expect(204);
    await as(owner).get(`/api/trainings/${training.training_id}`).expect(404);
    expect(
      await k.t.db.query('SELECT 1 FROM outputs WHERE training_id = $1', [training.training_id]),
    ).toEqual([]);
  });

  it('refuses with the spec’s texts: no access (412), no name, a dataset of the wrong kind, nothing to run', async () => {
    const broke = await k.customer(null);
    const avatar = await avatarOf(owner);
    const file_id = await fileOf(owner, Buffer.from(dataset(3)), 'posts.jsonl');
    const denied = await as(broke).post('/api/trainings', {
      name: 'x',
      avatar_id: avatar.avatar_id,
      file_id,
    });
    expect(denied.status).toBe(412);
    expect(denied.body.message).toBe(PREMIUM);
    const noName = await as(owner).post('/api/trainings', {
      name: ' ',
      avatar_id: avatar.avatar_id,
      file_id,
    });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe('You must add a name to your training.');
    const image = await fileOf(owner, PNG, 'a.png');
    const wrongKind = await as(owner).post('/api/trainings', {
      name: 'x',
      avatar_id: avatar.avatar_id,
      file_id: image,
    });
    expect(wrongKind.status).toBe(415);
    // A .docx dataset is read like a .txt one.
    const docx = await fileOf(owner, await makeDocx(['A docx dataset line.']), 'd.docx');
    await as(owner)
      .post('/api/trainings', { name: 'Docx', avatar_id: avatar.avatar_id, file_id: docx })
      .expect(201);

    // A user whose words ran out: executing is 412 with the premium sentence (the screen goes to /sorry).
    const spender = await k.customer(50);
    const training = await trainingOf(spender);
    await k.t.db.query(`UPDATE word_ledger SET expires_at = now() WHERE user_id = $1`, [spender.user_id]);
    const noWords = await as(spender).post('/api/trainings/execute', { training_id: training.training_id });
    expect(noWords.status).toBe(412);
    expect(noWords.body.message).toBe(PREMIUM);
    const noOutput = await as(spender).post('/api/outputs/generate', {
      training_id: training.training_id,
      prompt: 'x',
    });
    expect(noOutput.status).toBe(412);

    // Refining before a run; bad ids.
    const fresh = await trainingOf(owner);
    const early = await as(owner)
      .post('/api/trainings/refine', { training_id: fresh.training_id })
      .expect(400);
    expect(early.body.code).toBe('training_not_executed');
    await as(owner).post('/api/trainings/execute', { training_id: 'x' }).expect(400);
    await as(owner).get('/api/trainings/abc').expect(400);
    await as(owner).post('/api/outputs/generate', { prompt: 'x' }).expect(400);
  });

  it('a dataset that holds no text fails the run with its reason; a provider refusal fails it with Open AI Error', async () => {
    const empty = await trainingOf(owner, '   \n  ');
    await as(owner).post('/api/trainings/execute', { training_id: empty.training_id }).expect(200);
    const failed = await settled(owner, empty.training_id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toBeTruthy();

    const training = await trainingOf(owner);
    k.fake.reply({ fail: { status: 400, message: 'Bad model', code: 'model_not_found' } });
    await as(owner).post('/api/trainings/execute', { training_id: training.training_id }).expect(200);
    const refused = await settled(owner, training.training_id);
    expect(refused.state).toBe('failed');
    expect(refused.error).toMatch(/^Open AI Error: /);
  });
});
