import type { TrainingCheckpoint } from '../src/modules/trainings/training-rules';
import { Instance, Rig, sleep, startRig } from './faults-kit';

/** What the calls of this test answer (the parts it reads). */
interface Answer {
  avatar: {
    avatar_id: number;
    avatar_files: { file_data: { name: string }; index_state: string; chunks: number }[];
  };
  training: { training_id: number };
}

/** Each model step of the run: 10 chunks 250 ms apart (about 2.5 s), so a worker can be killed mid-run. */
const STEP = { text: 'Short cheerful sentences; nautical words; lists.', chunks: 10, delayMs: 250 };
const DATASET_BYTES = 5 * 1024 * 1024;
/** A training's windows of the dataset (STYLE_SAMPLES) plus the guide. */
const WINDOWS = 6;

/** About 5 MB of JSON lines: example posts, one planted fact in the middle. */
function dataset(): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < DATASET_BYTES; i++) {
    const line = JSON.stringify({
      prompt: `Write post ${i} about the harbour`,
      completion: `Post ${i}: the harbour master counted ${i % 97} boats, checked the ropes and wrote a cheerful note.`,
    });
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n'));
}

/**
 * A training run is a BullMQ job on a worker process. The worker is killed (SIGKILL) in the middle of the run and
 * started again: the run resumes from its last saved step (the steps already done are not asked of the model
 * again, nor charged twice) and completes.
 */
describe('a training survives a restart of its worker', () => {
  jest.setTimeout(240_000);
  let rig: Rig;
  const workers: Instance[] = [];

  beforeAll(async () => {
    // The in-process instance only serves the API; the runs go to the worker processes.
    rig = await startRig({ env: { ROLE: 'api' } });
    rig.fake.defaultReply = STEP;
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await rig?.close();
  });

  const api = async (auth: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${rig.url}${path}`, {
      method,
      headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Answer };
  };
  const row = async (id: number) =>
    (
      (await rig.t.db.query(
        `SELECT state, stage, progress, error, style_guide, checkpoint FROM trainings WHERE training_id = $1`,
        [id],
      )) as {
        state: string;
        stage: string;
        error: string | null;
        style_guide: string;
        checkpoint: TrainingCheckpoint | null;
      }[]
    )[0];

  it('a 5 MB dataset: the worker is killed mid-run, a new one resumes it from its checkpoint and completes', async () => {
    const { user } = await rig.customer();
    const avatar = await api(user.auth, 'POST', '/api/avatars', { name: 'Harbour' });
    expect(avatar.status).toBe(201);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(dataset())]), 'posts.jsonl');
    const upload = await fetch(`${rig.url}/api/files`, {
      method: 'POST',
      headers: { authorization: user.auth },
      body: form,
    });
    expect(upload.status).toBe(201);
    const file = ((await upload.json()) as { file: { file_id: number; size: number } }).file;
    expect(file.size).toBeGreaterThanOrEqual(DATASET_BYTES);
    const made = await api(user.auth, 'POST', '/api/trainings', {
      name: 'Posts',
      avatar_id: avatar.body.avatar.avatar_id,
      file_id: file.file_id,
    });
    expect(made.status).toBe(201);
    const id = made.body.training.training_id as number;
    expect((await api(user.auth, 'POST', '/api/trainings/execute', { training_id: id })).status).toBe(200);

    workers.push(await rig.spawnInstance({ ROLE: 'worker' }));
    // Which windows the model was asked for: excerpt i + 1 of the run.
    const asked = (i: number) =>
      rig.fake.requests.filter((r) =>
        r.messages.some((m) => m.content.includes(`excerpt ${i + 1} of ${WINDOWS}`)),
      ).length;
    // Killed once two windows' notes are saved and the next window is in flight at the model (asked, not answered).
    let killedWith = 0;
    for (const deadline = Date.now() + 120_000; ; await sleep(100)) {
      const r = await row(id);
      const saved = r.checkpoint?.notes.length ?? 0;
      if (saved >= 2 && asked(saved) === 1) {
        await workers[0].kill();
        killedWith = (await row(id)).checkpoint!.notes.length;
        break;
      }
      if (r.state === 'failed' || Date.now() > deadline)
        throw new Error(`not killed mid-run: ${JSON.stringify(r)}`);
    }
    expect(killedWith).toBeLessThan(WINDOWS);
    expect((await row(id)).state).toBe('running');

    workers.push(await rig.spawnInstance({ ROLE: 'worker' }));
    let done = await row(id);
    for (const deadline = Date.now() + 120_000; !['ready', 'failed'].includes(done.state); await sleep(200)) {
      if (Date.now() > deadline) throw new Error(`not finished after the restart: ${JSON.stringify(done)}`);
      done = await row(id);
    }
    expect(done).toMatchObject({ state: 'ready', stage: 'done', error: null, style_guide: STEP.text });
    expect(done.checkpoint!.notes).toHaveLength(WINDOWS);

    // Windows saved before the kill were not asked again; the one in flight was asked twice.
    for (let i = 0; i < killedWith; i++) expect(asked(i)).toBe(1);
    expect(asked(killedWith)).toBe(2);
    // Every step is charged once: the windows and the guide (the step cut by the kill was never settled).
    const debits = (await rig.t.db.query(
      `SELECT reference FROM word_ledger WHERE user_id = $1 AND kind = 'debit' AND source = 'training'`,
      [user.user_id],
    )) as { reference: string }[];
    expect(debits).toHaveLength(WINDOWS + 1);
    expect(new Set(debits.map((d) => d.reference)).size).toBe(WINDOWS + 1);

    // The dataset is the avatar's knowledge: its passages were indexed.
    const files = await api(user.auth, 'GET', `/api/avatars/${avatar.body.avatar.avatar_id}`);
    expect(files.body.avatar.avatar_files).toEqual([
      expect.objectContaining({
        file_data: expect.objectContaining({ name: 'posts.jsonl' }),
        index_state: 'ready',
      }),
    ]);
    expect(files.body.avatar.avatar_files[0].chunks).toBeGreaterThan(1000);
  });
});
