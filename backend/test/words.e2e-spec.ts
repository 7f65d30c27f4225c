import { WordsService } from '../src/modules/words/words.service';
import { startTestApp, TestApp, TestUser } from './harness';

describe('Words API', () => {
  let t: TestApp;
  let admin: TestUser;
  let words: WordsService;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    words = t.app.get(WordsService);
  });
  afterAll(() => t.close());

  const balanceOf = async (who: TestUser) =>
    (await t.http().get('/api/words/balance').set('Authorization', who.auth).expect(200)).body.balance;
  const adminGrant = (body: object) =>
    t.http().post('/api/words/admin/grant').set('Authorization', admin.auth).send(body);
  /** Moves the user's whole ledger back in time, as if `days` had passed. */
  const age = (user_id: number, days: number) =>
    t.db.query(
      `UPDATE word_ledger SET "createdAt" = "createdAt" - make_interval(days => $2),
              expires_at = expires_at - make_interval(days => $2) WHERE user_id = $1`,
      [user_id, days],
    );

  it('shows no words and no access to a customer without grants', async () => {
    const me = await t.createUser();
    expect(await balanceOf(me)).toEqual({
      words: 0,
      unlimited: false,
      display_balance: 0,
      has_access: false,
    });
    const user = await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
    expect(user.body.user.has_access).toBe(false);
  });

  it('gives a customer access on GET /api/users once words are granted', async () => {
    const me = await t.createUser();
    await adminGrant({ user_id: me.user_id, words: 500 }).expect(201);
    const user = await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
    expect(user.body.user.has_access).toBe(true);
  });

  it('answers the balance after an admin grant, and debits lower it', async () => {
    const me = await t.createUser();
    const res = await adminGrant({ user_id: me.user_id, words: 500, note: 'welcome' }).expect(201);
    expect(res.body.balance).toEqual({
      words: 500,
      unlimited: false,
      display_balance: 500,
      has_access: true,
    });
    expect(await words.debit(me.user_id, 120, { source: 'generation' })).toEqual({
      charged: 120,
      short: 0,
      replayed: false,
    });
    expect(await balanceOf(me)).toMatchObject({ words: 380, display_balance: 380 });
  });

  it('charges only what is left and reports the rest as short', async () => {
    const me = await t.createUser();
    await words.grant(me.user_id, { words: 50, source: 'gift' });
    expect(await words.debit(me.user_id, 80, { source: 'generation' })).toEqual({
      charged: 50,
      short: 30,
      replayed: false,
    });
    expect(await balanceOf(me)).toMatchObject({ words: 0, has_access: false });
    expect(await words.debit(me.user_id, 10, { source: 'generation' })).toMatchObject({
      charged: 0,
      short: 10,
    });
  });

  it('forfeits unspent words when their grant expires, without resurrecting spent ones', async () => {
    const me = await t.createUser();
    const soon = new Date(Date.now() + 2 * 86_400_000);
    await adminGrant({ user_id: me.user_id, words: 100, expires_at: soon.toISOString() }).expect(201);
    await words.grant(me.user_id, { words: 100, source: 'purchase', reference: `p-${me.user_id}` });
    // The expiring grant is spent first: 100 from it, 50 from the other.
    await words.debit(me.user_id, 150, { source: 'generation' });
    expect((await balanceOf(me)).words).toBe(50);
    await age(me.user_id, 3);
    expect((await balanceOf(me)).words).toBe(50);

    const other = await t.createUser();
    await words.grant(other.user_id, { words: 100, source: 'trial', expires_at: soon });
    await words.debit(other.user_id, 30, { source: 'generation' });
    await age(other.user_id, 3);
    expect(await balanceOf(other)).toMatchObject({ words: 0, has_access: false });
    await words.grant(other.user_id, { words: 100, source: 'gift' });
    expect((await balanceOf(other)).words).toBe(100);
  });

  it('shows 1000000 and access for unlimited, charges in full and records debits without consuming', async () => {
    const me = await t.createUser();
    await words.grant(me.user_id, { words: 40, source: 'gift' });
    const res = await adminGrant({ user_id: me.user_id, unlimited: true }).expect(201);
    expect(res.body.balance).toEqual({
      words: 40,
      unlimited: true,
      display_balance: 1_000_000,
      has_access: true,
    });
    expect(await words.debit(me.user_id, 5000, { source: 'generation' })).toMatchObject({
      charged: 5000,
      short: 0,
    });
    expect((await balanceOf(me)).words).toBe(40);
    const ledger = await t.http().get('/api/words/ledger').set('Authorization', me.auth).expect(200);
    expect(ledger.body).toMatchObject({ total: 3, page: 1, limit: 20 });
    expect(ledger.body.entries[0]).toMatchObject({ kind: 'debit', words: -5000, source: 'generation' });
    expect(ledger.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['debit', 'grant', 'grant']);
  });

  it('charges exactly the balance under 100 concurrent debits and never goes negative', async () => {
    const me = await t.createUser();
    await words.grant(me.user_id, { words: 500, source: 'purchase' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        words.debit(me.user_id, 10, { source: 'generation', reference: `race-${me.user_id}-${i}` }),
      ),
    );
    expect(results.reduce((sum, r) => sum + r.charged, 0)).toBe(500);
    expect(results.filter((r) => r.charged === 10)).toHaveLength(50);
    expect(await words.balance(me.user_id)).toEqual({ words: 0, unlimited: false });
    const [{ total }] = await t.db.query(
      `SELECT -sum(words)::int AS total FROM word_ledger WHERE user_id = $1 AND kind = 'debit'`,
      [me.user_id],
    );
    expect(total).toBe(500);
  });

  it('debits inside the caller transaction and rolls back with it', async () => {
    const me = await t.createUser();
    await words.grant(me.user_id, { words: 100, source: 'gift' });
    await expect(
      t.db.transaction(async (m) => {
        await words.debit(me.user_id, 60, { source: 'generation' }, m);
        expect((await words.balance(me.user_id, m)).words).toBe(40);
        throw new Error('generation failed');
      }),
    ).rejects.toThrow('generation failed');
    expect((await words.balance(me.user_id)).words).toBe(100);
  });

  it('charges a retried debit or grant with the same reference only once', async () => {
    const me = await t.createUser();
    const first = await words.grant(me.user_id, { words: 100, source: 'purchase', reference: 'order-42' });
    const again = await words.grant(me.user_id, { words: 100, source: 'purchase', reference: 'order-42' });
    expect(again.entry_id).toBe(first.entry_id);
    expect(await words.debit(me.user_id, 30, { source: 'generation', reference: 'msg-7' })).toMatchObject({
      charged: 30,
      replayed: false,
    });
    expect(await words.debit(me.user_id, 30, { source: 'generation', reference: 'msg-7' })).toEqual({
      charged: 30,
      short: 0,
      replayed: true,
    });
    expect((await words.balance(me.user_id)).words).toBe(70);

    const stranger = await t.createUser();
    await words.grant(stranger.user_id, { words: 100, source: 'gift' });
    await expect(
      words.debit(stranger.user_id, 5, { source: 'generation', reference: 'msg-7' }),
    ).rejects.toMatchObject({ status: 409, code: 'reference_taken' });
  });

  it('lets only staff admins grant, and validates the grant', async () => {
    const customer = await t.createUser();
    const manager = await t.createUser({ staff: 'manager' });
    for (const who of [customer, manager]) {
      await t
        .http()
        .post('/api/words/admin/grant')
        .set('Authorization', who.auth)
        .send({ user_id: customer.user_id, words: 100 })
        .expect(403);
    }
    await t.http().post('/api/words/admin/grant').send({ user_id: customer.user_id, words: 1 }).expect(401);
    expect((await balanceOf(customer)).words).toBe(0);

    expect((await adminGrant({ user_id: customer.user_id }).expect(400)).body.code).toBe('invalid_grant');
    expect(
      (await adminGrant({ user_id: customer.user_id, words: 5, unlimited: true }).expect(400)).body.code,
    ).toBe('invalid_grant');
    await adminGrant({ user_id: customer.user_id, words: 0 }).expect(400);
    await adminGrant({ user_id: customer.user_id, words: 2.5 }).expect(400);
    const past = await adminGrant({ user_id: customer.user_id, words: 5, expires_at: '2020-01-01' }).expect(
      400,
    );
    expect(past.body.code).toBe('invalid_expiry');
    const missing = await adminGrant({ user_id: 99999999, words: 5 }).expect(404);
    expect(missing.body.code).toBe('user_not_found');
  });

  it('pages the ledger and shows only the caller own entries', async () => {
    const me = await t.createUser();
    for (let i = 0; i < 3; i++) await words.grant(me.user_id, { words: 10 + i, source: 'gift' });
    const other = await t.createUser();
    await words.grant(other.user_id, { words: 999, source: 'gift' });
    const page = await t
      .http()
      .get('/api/words/ledger?page=2&limit=2')
      .set('Authorization', me.auth)
      .expect(200);
    expect(page.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.body.entries).toEqual([
      expect.objectContaining({
        kind: 'grant',
        words: 10,
        unlimited: false,
        source: 'gift',
        reference: null,
      }),
    ]);
    await t.http().get('/api/words/ledger?page=0').set('Authorization', me.auth).expect(400);
    await t.http().get('/api/words/balance').expect(401);
  });

  it('reports in the organization users list the words each member spent there within the range', async () => {
    const orgAdmin = await t.createUser();
    const member = await t.createUser();
    const organization_id = await t.createOrganization();
    const elsewhere = await t.createOrganization();
    await t.addMember(organization_id, orgAdmin.user_id, 1);
    await t.addMember(organization_id, member.user_id, 3);
    await words.grant(member.user_id, { words: 1000, source: 'gift' });
    await words.debit(member.user_id, 70, { source: 'generation', organization_id });
    await words.debit(member.user_id, 30, { source: 'generation', organization_id });
    await words.debit(member.user_id, 200, { source: 'generation', organization_id: elsewhere });
    await words.debit(member.user_id, 400, { source: 'generation' });
    await words.debit(member.user_id, 5, { source: 'generation', organization_id });
    await t.db.query(
      `UPDATE word_ledger SET "createdAt" = '2024-03-10T12:00:00Z' WHERE user_id = $1 AND words = -5`,
      [member.user_id],
    );
    const list = (query = '') =>
      t
        .http()
        .get(`/api/organizations/${organization_id}/users${query}`)
        .set('Authorization', orgAdmin.auth)
        .expect(200);
    const row = (body: { users: { user_id: number; total_words: number }[] }, user_id: number) =>
      body.users.find((u) => u.user_id === user_id)!;
    const current = await list();
    expect(row(current.body, member.user_id).total_words).toBe(100);
    expect(row(current.body, orgAdmin.user_id).total_words).toBe(0);
    const march = await list('?start_date=2024-03-01&end_date=2024-03-31');
    expect(row(march.body, member.user_id).total_words).toBe(5);
  });
});
