import { makeDocx, makePdf } from '../src/modules/files/testing/document-builders';
import { EXE, PNG, PLAIN_ZIP } from '../src/modules/files/testing/sample-files';
import type { TestUser } from './harness';
import { UnitOfWork } from '../src/database/unit-of-work';
import { AvatarsRepository } from '../src/modules/avatars/avatars.repository';
import { MessagesKit, startMessagesKit, waitFor } from './messages-kit';

const PREMIUM = 'This is a premium feature. Please, upgrade your account.';
const FACT = 'The secret launch code of Project Bluefin is 7731-ORCA.';
/** Text about other things, so the planted fact is one passage among many. */
const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `Paragraph ${i} about ${topic}: the committee reviewed budgets, schedules and staffing for the quarter ` +
      `and agreed to meet again after the holidays to discuss ${topic} in more detail.`,
  ).join('\n\n');

describe('Avatars', () => {
  let k: MessagesKit;
  let owner: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    k = await startMessagesKit();
    owner = await k.customer();
    admin = await k.t.createUser({ staff: 'admin' });
  });
  afterAll(() => k.close());

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

  async function avatarOf(who: TestUser, body: object = { name: 'Helper' }, scope?: number) {
    const res = await as(who, scope).post('/api/avatars', body).expect(201);
    return res.body.avatar as { avatar_id: number; assistant_id: string };
  }

  /** An editable text file named facts in the owner's avatar. */
  function factsFile(avatar: { avatar_id: number; assistant_id: string }, content: string) {
    return as(owner)
      .post(`/api/avatars/add-editable-file/${avatar.avatar_id}/${avatar.assistant_id}`, {
        name: 'facts',
        content,
      })
      .expect(201);
  }

  async function indexed(who: TestUser, avatarId: number, files: number) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await as(who).get(`/api/avatars/${avatarId}`).expect(200);
      const list = res.body.avatar.avatar_files as { index_state: string }[];
      if (list.length === files && list.every((f) => ['ready', 'failed'].includes(f.index_state)))
        return res.body.avatar;
      if (Date.now() > deadline) throw new Error(`Files not indexed: ${JSON.stringify(list)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('creates, reads, lists, searches, changes and deletes an avatar with the spec’s messages', async () => {
    const user = await k.customer();
    const made = await as(user)
      .post('/api/avatars', { name: '  Copywriter ', description: 'Writes ads' })
      .expect(201);
    const avatar = made.body.avatar;
    expect(avatar).toMatchObject({
      name: 'Copywriter',
      description: 'Writes ads',
      context: '',
      public: false,
      user_id: user.user_id,
      organization_id: null,
      can_manage: true,
      avatar_files: [],
    });
    expect(avatar.assistant_id).toMatch(/^asst_[0-9a-f]{24}$/);

    const noName = await as(user).post('/api/avatars', { name: '  ' }).expect(400);
    expect(noName.body.message).toBe('You must add a name to your avatar.');
    await as(user).post('/api/avatars', {}).expect(400);

    const empty = await as(user)
      .put(`/api/avatars/add-context/${avatar.avatar_id}`, { context: ' ' })
      .expect(400);
    expect(empty.body.message).toBe("The input can't be empty");
    const withContext = await as(user)
      .put(`/api/avatars/add-context/${avatar.avatar_id}`, { context: 'You write short ads.', name: 'Ads' })
      .expect(200);
    expect(withContext.body.avatar).toMatchObject({ context: 'You write short ads.', name: 'Ads' });

    await avatarOf(user, { name: 'Translator' });
    const all = await as(user).get('/api/avatars').expect(200);
    expect(all.body).toMatchObject({ total: 2, page: 1, limit: 24 });
    const found = await as(user).get('/api/avatars?query=ads').expect(200);
    expect(found.body.avatars.map((a: { name: string }) => a.name)).toEqual(['Ads']);

    const changed = await as(user)
      .put('/api/avatars', { avatar_id: avatar.avatar_id, description: 'Short ads' })
      .expect(200);
    expect(changed.body.avatar.description).toBe('Short ads');

    await as(user).delete(`/api/avatars/${avatar.avatar_id}`).expect(204);
    await as(user).get(`/api/avatars/${avatar.avatar_id}`).expect(404);
  });

  it('keeps avatars to their owner, scope and organization; only admins make one public', async () => {
    const other = await k.customer();
    const mine = await avatarOf(owner);
    for (const call of [
      as(other).get(`/api/avatars/${mine.avatar_id}`),
      as(other).put('/api/avatars', { avatar_id: mine.avatar_id, name: 'Stolen' }),
      as(other).put(`/api/avatars/add-context/${mine.avatar_id}`, { context: 'x' }),
      as(other).delete(`/api/avatars/${mine.avatar_id}`),
      as(other).get(`/api/messages/thread/${mine.avatar_id}`),
    ]) {
      const res = await call.expect(404);
      expect(res.body.code).toBe('avatar_not_found');
    }

    const notAdmin = await as(owner).post('/api/avatars', { name: 'Open', public: true }).expect(403);
    expect(notAdmin.body.code).toBe('avatar_public_admin_only');
    await as(owner).put('/api/avatars', { avatar_id: mine.avatar_id, public: true }).expect(403);

    // A staff admin manages anyone's avatar and makes it public; then every user sees it, only its owner changes it.
    await as(admin).put('/api/avatars', { avatar_id: mine.avatar_id, public: true }).expect(200);
    const seen = await as(other).get(`/api/avatars/${mine.avatar_id}`).expect(200);
    expect(seen.body.avatar).toMatchObject({ public: true, can_manage: false });
    const community = await as(other).get('/api/avatars/public/all').expect(200);
    expect(community.body.avatars.map((a: { avatar_id: number }) => a.avatar_id)).toContain(mine.avatar_id);
    await as(other).put('/api/avatars', { avatar_id: mine.avatar_id, name: 'Stolen' }).expect(403);
    await as(other).delete(`/api/avatars/${mine.avatar_id}`).expect(403);

    // Organization scope: an avatar made in an organization is its members', not in anyone's Personal list.
    const org = await k.t.createOrganization('Avatar Org');
    const member = await k.customer();
    const colleague = await k.customer();
    await k.t.addMember(org, member.user_id, 3);
    await k.t.addMember(org, colleague.user_id, 3);
    const orgAvatar = await avatarOf(member, { name: 'Team voice' }, org);
    expect((await as(member).get(`/api/avatars/${orgAvatar.avatar_id}`).expect(404)).body.code).toBe(
      'avatar_not_found',
    );
    expect((await as(member).get('/api/avatars').expect(200)).body.total).toBe(0);
    const teamList = await as(colleague, org).get('/api/avatars').expect(200);
    expect(teamList.body.avatars.map((a: { name: string }) => a.name)).toEqual(['Team voice']);
    await as(colleague, org).get(`/api/avatars/${orgAvatar.avatar_id}`).expect(200);
    await as(colleague, org).put('/api/avatars', { avatar_id: orgAvatar.avatar_id, name: 'x' }).expect(403);
    await as(other).get(`/api/avatars/${orgAvatar.avatar_id}`).expect(404);
  });

  it('answers 412 with the premium sentence to a user without access', async () => {
    const broke = await k.customer(0);
    const res = await as(broke).post('/api/avatars', { name: 'Nope' }).expect(412);
    expect(res.body.message).toBe(PREMIUM);
    // Access lost after creating: adding files is refused the same way.
    const user = await k.customer();
    const avatar = await avatarOf(user);
    await k.t.db.query(`DELETE FROM word_ledger WHERE user_id = $1`, [user.user_id]);
    const upload = await as(user)
      .upload(
        `/api/avatars/add-file/${avatar.avatar_id}/${avatar.assistant_id}`,
        Buffer.from('notes'),
        'a.txt',
      )
      .expect(412);
    expect(upload.body.message).toBe(PREMIUM);
    const editable = await as(user)
      .post(`/api/avatars/add-editable-file/${avatar.avatar_id}/${avatar.assistant_id}`, {
        name: 'n',
        content: 'x',
      })
      .expect(412);
    expect(editable.body.message).toBe(PREMIUM);
  });

  it('adds .docx, .pdf, .pptx and .txt files typed by content, indexes them, and refuses anything else', async () => {
    const avatar = await avatarOf(owner);
    const path = `/api/avatars/add-file/${avatar.avatar_id}/${avatar.assistant_id}`;
    const docx = await as(owner)
      .upload(path, await makeDocx(['Docx holds the word marmalade.']), 'a.docx')
      .expect(201);
    expect(docx.body.file).toMatchObject({ editable: false, index_state: 'pending', content: null });
    expect(docx.body.file.openai_file_id).toBe(String(docx.body.file.avatar_file_id));
    await as(owner)
      .upload(path, await makePdf([['Pdf holds the word saxophone.']]), 'b.pdf')
      .expect(201);
    await as(owner).upload(path, Buffer.from('Text holds the word tangerine.'), 'c.txt').expect(201);

    for (const [data, name] of [
      [EXE, 'evil.pdf'],
      [PNG, 'photo.png'],
      [PNG, 'notes.txt'],
      [PLAIN_ZIP, 'archive.docx'],
    ] as const) {
      const res = await as(owner).upload(path, data, name).expect(415);
      expect(res.body.message).toBe('This file type is not allowed.');
    }
    await as(owner)
      .upload(`/api/avatars/add-file/${avatar.avatar_id}/asst_wrong`, Buffer.from('x'), 'x.txt')
      .expect(404);

    const ready = await indexed(owner, avatar.avatar_id, 3);
    expect(
      ready.avatar_files.map((f: { index_state: string; chunks: number }) => [f.index_state, f.chunks]),
    ).toEqual([
      ['ready', 1],
      ['ready', 1],
      ['ready', 1],
    ]);
    const found = await as(owner)
      .get(
        `/api/avatars/${avatar.avatar_id}/passages?question=${encodeURIComponent('Which word is in the pdf? saxophone')}`,
      )
      .expect(200);
    expect(found.body.passages[0]).toMatchObject({
      file_name: 'b.pdf',
      passage: 'Pdf holds the word saxophone.',
    });

    // Deleting a file needs its three keys to agree.
    const file = ready.avatar_files[0];
    await as(owner).delete(`/api/avatars/file/${file.avatar_file_id}/999/${avatar.assistant_id}`).expect(404);
    await as(owner)
      .delete(`/api/avatars/file/${file.avatar_file_id}/${file.openai_file_id}/${avatar.assistant_id}`)
      .expect(204);
    expect(
      (await as(owner).get(`/api/avatars/${avatar.avatar_id}`).expect(200)).body.avatar.avatar_files,
    ).toHaveLength(2);
  });

  it('deletes an avatar while its file is being indexed, without a deadlock', async () => {
    const avatar = await avatarOf(owner);
    const made = await factsFile(avatar, 'The mascot is a heron.');
    await indexed(owner, avatar.avatar_id, 1);
    const fileId = made.body.file.avatar_file_id as number;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 400));
    // Someone holds the file's row, so the indexing's passages wait while the deletion comes in.
    const holder = k.t.db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(`SELECT 1 FROM avatar_files WHERE avatar_file_id = $1 FOR UPDATE`, [fileId]);
    const writing = k.t.app
      .get(UnitOfWork)
      .run((m) =>
        k.t.app
          .get(AvatarsRepository)
          .replaceChunks(m, avatar.avatar_id, fileId, [
            { content: 'The mascot is a crane.', embedding: null },
          ]),
      );
    await pause();
    const deleting = as(owner).delete(`/api/avatars/${avatar.avatar_id}`);
    const answered = deleting.then((res) => res.status);
    await pause();
    await holder.commitTransaction();
    await holder.release();
    // Locked in the same order (the avatar, then its file), the two take turns instead of one being killed as
    // a deadlock (the deletion used to answer 500).
    await expect(writing).resolves.toBe(true);
    expect(await answered).toBe(204);
    await as(owner).get(`/api/avatars/${avatar.avatar_id}`).expect(404);
    expect(
      await k.t.db.query(`SELECT 1 FROM avatar_chunks WHERE avatar_id = $1`, [avatar.avatar_id]),
    ).toHaveLength(0);
  });

  it('edits an editable text file in place and indexes it again', async () => {
    const avatar = await avatarOf(owner);
    const made = await factsFile(avatar, 'The mascot is a heron.');
    expect(made.body.file).toMatchObject({ editable: true, file_data: { name: 'facts.txt', file_id: null } });
    await indexed(owner, avatar.avatar_id, 1);
    const id = made.body.file.avatar_file_id;
    const empty = await as(owner).put(`/api/avatars/editable-file/${id}`, { content: '' }).expect(400);
    expect(empty.body.message).toBe("The input can't be empty");
    const tooLong = await as(owner)
      .put(`/api/avatars/editable-file/${id}`, { content: 'x'.repeat(65_001) })
      .expect(400);
    expect(tooLong.body.message).toBe('The file length is too large, please remove text to save');
    await as(owner)
      .put(`/api/avatars/editable-file/${id}`, { content: 'The mascot is a pelican.' })
      .expect(200);
    const ready = await indexed(owner, avatar.avatar_id, 1);
    expect(ready.avatar_files[0]).toMatchObject({ avatar_file_id: id, content: 'The mascot is a pelican.' });
    const found = await as(owner)
      .get(`/api/avatars/${avatar.avatar_id}/passages?question=mascot`)
      .expect(200);
    expect(found.body.passages.map((p: { passage: string }) => p.passage)).toEqual([
      'The mascot is a pelican.',
    ]);
    const other = await k.customer();
    await as(other).put(`/api/avatars/editable-file/${id}`, { content: 'Mine now.' }).expect(404);
  });

  async function avatarWithPlantedFact(who: TestUser) {
    const avatar = await avatarOf(who, { name: 'Archivist', context: 'You are the archivist of Bluefin.' });
    const path = `/api/avatars/add-file/${avatar.avatar_id}/${avatar.assistant_id}`;
    await as(who)
      .upload(path, Buffer.from(filler('marketing', 30)), 'marketing.txt')
      .expect(201);
    await as(who)
      .upload(
        path,
        Buffer.from(`${filler('engineering', 12)}\n\n${FACT}\n\n${filler('operations', 12)}`),
        'bluefin.txt',
      )
      .expect(201);
    await indexed(who, avatar.avatar_id, 2);
    return avatar;
  }

  it('retrieves the passage holding a planted fact, with embeddings and with full text alone', async () => {
    const avatar = await avatarWithPlantedFact(owner);
    const question = encodeURIComponent('What is the launch code of Project Bluefin?');
    const withEmbeddings = await as(owner)
      .get(`/api/avatars/${avatar.avatar_id}/passages?question=${question}`)
      .expect(200);
    expect(withEmbeddings.body.passages[0].file_name).toBe('bluefin.txt');
    expect(withEmbeddings.body.passages[0].passage).toContain('7731-ORCA');
    expect(withEmbeddings.body.passages.length).toBeLessThanOrEqual(5);

    k.fake.embeddings = false;
    try {
      const textOnly = await as(owner)
        .get(`/api/avatars/${avatar.avatar_id}/passages?question=${question}`)
        .expect(200);
      expect(textOnly.body.passages[0].passage).toContain('7731-ORCA');
    } finally {
      k.fake.embeddings = true;
    }
  });

  it('binds a conversation to an avatar with PUT /api/conversations: the avatar answers there, citing its file', async () => {
    const user = await k.customer();
    const avatar = await avatarWithPlantedFact(user);
    const conversation_id = await k.conversation(user);
    const bound = await as(user)
      .put('/api/conversations', { conversation_id, avatar_id: avatar.avatar_id })
      .expect(200);
    expect(bound.body.conversation.avatar_id).toBe(avatar.avatar_id);
    await as(user).put('/api/conversations', { conversation_id, avatar_id: 'x' }).expect(400);
    k.fake.reply({ text: 'It is 7731-ORCA.' });
    const sent = await as(user)
      .post('/api/messages', { conversation_id, content: 'What is the launch code?', stream: false })
      .expect(201);
    expect(sent.body.message.citations[0]).toMatchObject({ file_name: 'bluefin.txt' });
    const system = k.fake.requests
      .at(-1)!
      .messages.filter((m) => m.role === 'system')
      .map((m) => m.content);
    expect(system.join('\n')).toContain('You are the archivist of Bluefin.');
    // null unbinds: the next answer is the plain chat's.
    const unbound = await as(user)
      .put('/api/conversations', { conversation_id, avatar_id: null })
      .expect(200);
    expect(unbound.body.conversation.avatar_id).toBeNull();
    k.fake.reply({ text: 'No idea.' });
    const plain = await as(user)
      .post('/api/messages', { conversation_id, content: 'And now?', stream: false })
      .expect(201);
    expect(plain.body.message.citations ?? null).toBeNull();
  });

  it('answers in the caller’s thread from the avatar’s context and passages, citing the file', async () => {
    const user = await k.customer();
    const avatar = await avatarWithPlantedFact(user);
    const { events } = await k.listen(user);
    k.fake.reply({ text: 'The code is 7731-ORCA (bluefin.txt).' });
    const sent = await as(user)
      .post('/api/messages', {
        avatar_id: avatar.avatar_id,
        content: 'What is the launch code of Project Bluefin?',
        stream: false,
      })
      .expect(201);
    const answer = sent.body.message;
    expect(answer.content).toBe('The code is 7731-ORCA (bluefin.txt).');
    expect(answer.citations[0]).toMatchObject({ file_name: 'bluefin.txt' });
    expect(answer.citations[0].passage).toContain('7731-ORCA');

    // The context is the avatar's instruction (system); the file's text goes as delimited user content only.
    const prompt = k.fake.requests.at(-1)!.messages;
    const system = prompt
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    expect(system).toContain('You are the archivist of Bluefin.');
    expect(system).not.toContain('7731-ORCA');
    const data = prompt.find((m) => m.role === 'user' && m.content.includes('7731-ORCA'))!;
    expect(data.content).toContain("passages from the assistant's knowledge files");
    expect(prompt.at(-1)).toEqual({ role: 'user', content: 'What is the launch code of Project Bluefin?' });

    const thread = await as(user).get(`/api/messages/thread/${avatar.avatar_id}`).expect(200);
    expect(thread.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(thread.body.messages[1].citations[0].file_name).toBe('bluefin.txt');
    const conversations = await as(user).get('/api/conversations').expect(200);
    expect(conversations.body.total).toBe(0);

    // Streamed: the answer arrives as usual and the thread event carries it.
    k.fake.reply({ text: 'Streamed answer.' });
    await as(user).post('/api/messages', { avatar_id: avatar.avatar_id, content: 'And again?' }).expect(201);
    const event = await waitFor(
      () =>
        events.find(
          (e) =>
            e.event === 'thread_messages' &&
            (e.payload.messages as { content: string }[])[0].content === 'Streamed answer.',
        ),
      10_000,
    );
    expect(event.payload).toMatchObject({ avatar_id: avatar.avatar_id });
    expect((event.payload.messages as { content: string }[])[0].content).toBe('Streamed answer.');

    const other = await k.customer();
    const refused = await as(other)
      .post('/api/messages', { avatar_id: avatar.avatar_id, content: 'Tell me the code', stream: false })
      .expect(404);
    expect(refused.body.code).toBe('avatar_not_found');
  });

  it('pages a thread 10 at a time, newest page first', async () => {
    const user = await k.customer();
    const avatar = await avatarOf(user);
    expect((await as(user).get(`/api/messages/thread/${avatar.avatar_id}`).expect(200)).body).toMatchObject({
      messages: [],
      total: 0,
    });
    k.fake.reply({ text: 'First answer.' });
    const sent = await as(user)
      .post('/api/messages', { avatar_id: avatar.avatar_id, content: 'Hi', stream: false })
      .expect(201);
    const conversationId = sent.body.message.conversation_id;
    await k.t.db.query(`DELETE FROM messages WHERE conversation_id = $1`, [conversationId]);
    await k.t.db.query(
      `INSERT INTO messages (conversation_id, user_id, role, content, "createdAt")
       SELECT $1, $2, 'user', 'm' || i, now() - (interval '1 minute' * (30 - i)) FROM generate_series(1, 25) i`,
      [conversationId, user.user_id],
    );
    const contents = (body: { messages: { content: string }[] }) => body.messages.map((m) => m.content);
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);
    const first = await as(user).get(`/api/messages/thread/${avatar.avatar_id}`).expect(200);
    expect(first.body).toMatchObject({ total: 25, page: 1, limit: 10 });
    expect(contents(first.body)).toEqual(range(16, 25));
    expect(
      contents((await as(user).get(`/api/messages/thread/${avatar.avatar_id}/2`).expect(200)).body),
    ).toEqual(range(6, 15));
    expect(
      contents((await as(user).get(`/api/messages/thread/${avatar.avatar_id}/3`).expect(200)).body),
    ).toEqual(range(1, 5));
    const bad = await as(user).get(`/api/messages/thread/${avatar.avatar_id}/0`).expect(400);
    expect(bad.body.code).toBe('invalid_page');
  });
});
