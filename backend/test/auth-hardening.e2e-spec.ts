import IORedis from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import { AuthService } from '../src/modules/auth/auth.service';
import { signVerificationToken, VERIFY_EMAIL_TTL_MS } from '../src/modules/auth/email-verification';
import { MailService } from '../src/modules/mail/mail.service';
import { startTestApp, TEST_REDIS_URL, TestApp, TestUser } from './harness';
import { connected, openSocket } from './sockets';

const signupBody = (over: Record<string, unknown> = {}) => ({
  name: 'Ana',
  last_name: 'Pérez',
  email: `ana-${Math.random().toString(36).slice(2, 8)}@example.com`,
  password: 'secret123',
  phone: '(555) 123-4567',
  ...over,
});

/**
 * The code of a base32 secret an authenticator app shows now, or `periods` periods from now (-1: the one before;
 * the server accepts the periods either side, and each code once).
 */
function codeOf(secret: string, periods = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + periods * 30_000,
  });
}

describe('auth hardening', () => {
  let t: TestApp;
  let mail: MailService;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0);
    mail = t.app.get(MailService);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const login = (email: string, password: string) =>
    t.http().post('/api/auth/login').send({ email, password });

  function createKey(user: TestUser, body: Record<string, unknown> = {}) {
    return t
      .http()
      .post('/api/users/api-key')
      .set('Authorization', user.auth)
      .send({ password: user.password, ...body });
  }

  describe('personal API keys', () => {
    it('expire after the lifetime chosen at creation (90 days by default)', async () => {
      const me = await t.createUser();
      const res = await createKey(me).expect(201);
      const days = (new Date(res.body.expires_at).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(89.9);
      expect(days).toBeLessThanOrEqual(90);
      const year = await createKey(me, { expires_in_days: 365 }).expect(201);
      expect((new Date(year.body.expires_at).getTime() - Date.now()) / 86_400_000).toBeGreaterThan(364.9);
      const me2 = await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
      expect(me2.body.user.api_key_expires_at).toBe(year.body.expires_at);
    });

    it('refuses a lifetime that is not offered, such as two years', async () => {
      const me = await t.createUser();
      const res = await createKey(me, { expires_in_days: 730 }).expect(400);
      expect(res.body.message).toContain('30, 90, 180, 365');
    });

    it('answers 401 api_key_expired with a clear message once the key has expired', async () => {
      const me = await t.createUser();
      const { body } = await createKey(me).expect(201);
      await t.db.query(
        `UPDATE users SET api_key_expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [me.user_id],
      );
      const res = await t.http().get('/api/users').set('Authorization', `Bearer ${body.api_key}`).expect(401);
      expect(res.body.code).toBe('api_key_expired');
      expect(res.body.message).toMatch(/expired.*Create a new one/);
    });

    it('needs the current password: 400 without it, 403 password_incorrect when wrong', async () => {
      const me = await t.createUser();
      const missing = await t
        .http()
        .post('/api/users/api-key')
        .set('Authorization', me.auth)
        .send({})
        .expect(400);
      expect(missing.body.message).toContain('current password');
      const wrong = await createKey(me, { password: 'not-mine' }).expect(403);
      expect(wrong.body.code).toBe('password_incorrect');
      const row = await t.db.query(`SELECT api_key_hash FROM users WHERE user_id = $1`, [me.user_id]);
      expect(row[0].api_key_hash).toBeNull();
    });

    it("gives a staff member's everyday key no staff powers; only a key made for staff use has them", async () => {
      const staff = await t.createUser({ staff: 'admin' });
      const plain = await createKey(staff).expect(201);
      expect(plain.body.staff).toBe(false);
      const asPlain = `Bearer ${plain.body.api_key}`;
      await t.http().get('/api/users').set('Authorization', asPlain).expect(200);
      await t.http().get('/api/staff/admin/all').set('Authorization', asPlain).expect(403);

      const staffKey = await createKey(staff, { staff: true }).expect(201);
      expect(staffKey.body.staff).toBe(true);
      await t
        .http()
        .get('/api/staff/admin/all')
        .set('Authorization', `Bearer ${staffKey.body.api_key}`)
        .expect(200);
    });

    it('refuses a staff key to a customer (403 staff_key_not_allowed)', async () => {
      const me = await t.createUser();
      const res = await createKey(me, { staff: true }).expect(403);
      expect(res.body.code).toBe('staff_key_not_allowed');
    });

    it('stops working once the password is reset', async () => {
      const me = await t.createUser();
      const { body } = await createKey(me).expect(201);
      const sent = jest.spyOn(mail, 'sendResetPassword');
      await t.http().post('/api/auth/recovery').send({ email: me.email }).expect(200);
      const token = new URL(sent.mock.calls[0][1]).searchParams.get('token')!;
      await t.http().post('/api/auth/reset-password').send({ token, password: 'brand-new-1' }).expect(200);
      const res = await t.http().get('/api/users').set('Authorization', `Bearer ${body.api_key}`).expect(401);
      expect(res.body.code).toBe('invalid_api_key');
    });
  });

  describe('sign out everywhere', () => {
    it('ends every session, revokes the API key and closes the sockets', async () => {
      const me = await t.createUser();
      const other = (await login(me.email, me.password).expect(200)).body;
      const { body: key } = await createKey(me).expect(201);
      const socket = openSocket(t.app, me.token);
      await connected(socket);
      const gone = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

      await t.http().post('/api/auth/logout-all').set('Authorization', me.auth).expect(204);

      await expect(gone).resolves.toBe('io server disconnect');
      await t.http().get('/api/users').set('Authorization', me.auth).expect(401);
      await t.http().get('/api/users').set('Authorization', `Bearer ${other.access_token}`).expect(401);
      await t.http().post('/api/auth/refresh').send({ refresh_token: other.refresh_token }).expect(401);
      await t.http().get('/api/users').set('Authorization', `Bearer ${key.api_key}`).expect(401);
      await login(me.email, me.password).expect(200);
    });

    it('answers 401 to an anonymous caller', async () => {
      await t.http().post('/api/auth/logout-all').expect(401);
    });
  });

  describe('email verification', () => {
    it('emails a link at sign-up; opening it verifies the address', async () => {
      const sent = jest.spyOn(mail, 'sendVerifyEmail');
      const body = signupBody();
      const res = await t.http().post('/api/auth/signup').send(body).expect(201);
      expect(res.body.user.email_verified).toBe(false);
      expect(sent).toHaveBeenCalledTimes(1);
      const link = sent.mock.calls[0][1];
      expect(link.startsWith(`${t.env.publicUrl}/auth/verify-email?token=`)).toBe(true);
      const token = new URL(link).searchParams.get('token')!;

      const verified = await t.http().post('/api/auth/verify-email').send({ token }).expect(200);
      expect(verified.body.email).toBe(body.email);
      const me = await t
        .http()
        .get('/api/users')
        .set('Authorization', `Bearer ${res.body.access_token}`)
        .expect(200);
      expect(me.body.user.email_verified).toBe(true);
      // Opening the link again is harmless.
      await t.http().post('/api/auth/verify-email').send({ token }).expect(200);
    });

    it('refuses an altered link (400 invalid_verification_link) and an expired one (400 verification_link_expired)', async () => {
      const me = await t.createUser({ unverified: true });
      const token = signVerificationToken(t.env.appSecret, me.user_id, me.email);
      const altered = await t
        .http()
        .post('/api/auth/verify-email')
        .send({ token: token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA') })
        .expect(400);
      expect(altered.body.code).toBe('invalid_verification_link');
      const old = signVerificationToken(
        t.env.appSecret,
        me.user_id,
        me.email,
        Date.now() - VERIFY_EMAIL_TTL_MS - 1000,
      );
      const expired = await t.http().post('/api/auth/verify-email').send({ token: old }).expect(400);
      expect(expired.body.code).toBe('verification_link_expired');
      const otherAddress = signVerificationToken(t.env.appSecret, me.user_id, 'someone-else@example.com');
      await t.http().post('/api/auth/verify-email').send({ token: otherAddress }).expect(400);
      const [row] = await t.db.query(`SELECT email_verified_at FROM users WHERE user_id = $1`, [me.user_id]);
      expect(row.email_verified_at).toBeNull();
    });

    it('sends the link again on request, and answers 409 once the address is verified', async () => {
      const me = await t.createUser({ unverified: true });
      const sent = jest.spyOn(mail, 'sendVerifyEmail');
      await t.http().post('/api/auth/verify-email/resend').set('Authorization', me.auth).expect(200);
      expect(sent).toHaveBeenCalledTimes(1);
      const token = new URL(sent.mock.calls[0][1]).searchParams.get('token')!;
      await t.http().post('/api/auth/verify-email').send({ token }).expect(200);
      const again = await t
        .http()
        .post('/api/auth/verify-email/resend')
        .set('Authorization', me.auth)
        .expect(409);
      expect(again.body.code).toBe('email_already_verified');
    });

    it('invites an unverified account without telling it apart, and keeps it from joining from its list (409 email_not_verified) until verified', async () => {
      const orgAdmin = await t.createUser({ staff: 'admin' });
      const organization_id = await t.createOrganization();
      const person = await t.createUser({ unverified: true });
      await t
        .http()
        .post('/api/user-organizations')
        .set('Authorization', orgAdmin.auth)
        .send({ organization_id, name: 'Person', email: person.email, user_type_id: 3 })
        .expect(201);
      const list = await t.http().get('/api/organization-invitations').set('Authorization', person.auth);
      const [pending] = list.body.invitations as { invitation_id: number }[];
      const accept = () =>
        t
          .http()
          .post(`/api/organization-invitations/${pending.invitation_id}/accept`)
          .set('Authorization', person.auth);
      const refused = await accept().expect(409);
      expect(refused.body.code).toBe('email_not_verified');
      expect(refused.body.message).toContain('verify your email');
      await t.db.query(`UPDATE users SET email_verified_at = now() WHERE user_id = $1`, [person.user_id]);
      await accept().expect(200);
    });

    it('keeps an unverified account from being made staff (409 email_not_verified)', async () => {
      const admin = await t.createUser({ staff: 'admin' });
      const person = await t.createUser({ unverified: true });
      const res = await t
        .http()
        .post('/api/staff')
        .set('Authorization', admin.auth)
        .send({ email: person.email, role: 'manager' })
        .expect(409);
      expect(res.body.code).toBe('email_not_verified');
      const rows = await t.db.query(`SELECT 1 FROM staff WHERE user_id = $1`, [person.user_id]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('failed sign-ins', () => {
    it('locks the account after 5 failures (429 login_locked, Retry-After), even for the right password, and a later success resets the count', async () => {
      const me = await t.createUser();
      for (let i = 0; i < 5; i++) await login(me.email, 'wrong-one').expect(401);
      const locked = await login(me.email, me.password).expect(429);
      expect(locked.body.code).toBe('login_locked');
      expect(locked.body.message).toMatch(/Too many failed sign-ins.*try again in \d+ seconds/);
      // 2^5 seconds after the fifth failure.
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(25);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(32);

      await t.db.query(
        `UPDATE users SET login_locked_until = now() - interval '1 second' WHERE user_id = $1`,
        [me.user_id],
      );
      await login(me.email, me.password).expect(200);
      const [row] = await t.db.query(
        `SELECT login_failures, login_locked_until FROM users WHERE user_id = $1`,
        [me.user_id],
      );
      expect(row).toEqual({ login_failures: 0, login_locked_until: null });
    });

    it('doubles the lock with each further failure, up to 15 minutes', async () => {
      const me = await t.createUser();
      await t.db.query(`UPDATE users SET login_failures = 12 WHERE user_id = $1`, [me.user_id]);
      await login(me.email, 'wrong-one').expect(401);
      const locked = await login(me.email, me.password).expect(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(890);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);
      expect(locked.body.message).toContain('15 minutes');
    });
  });

  describe('staff two-factor sign-in', () => {
    async function enrol(user: TestUser): Promise<string> {
      const setup = await t.http().post('/api/auth/2fa/setup').set('Authorization', user.auth).expect(200);
      expect(setup.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
      expect(setup.body.otpauth_uri).toContain(`secret=${setup.body.secret}`);
      // Confirmed with the previous period's code, so the current one is still unspent for the test.
      await t
        .http()
        .post('/api/auth/2fa/enable')
        .set('Authorization', user.auth)
        .send({ code: codeOf(setup.body.secret, -1) })
        .expect(200);
      return setup.body.secret as string;
    }

    it('enrols with a confirmed code; sign-in then asks for a code in a second step', async () => {
      const staff = await t.createUser({ staff: 'manager' });
      const setup = await t.http().post('/api/auth/2fa/setup').set('Authorization', staff.auth).expect(200);
      const wrong = await t
        .http()
        .post('/api/auth/2fa/enable')
        .set('Authorization', staff.auth)
        .send({ code: '000000' === codeOf(setup.body.secret) ? '111111' : '000000' })
        .expect(400);
      expect(wrong.body.code).toBe('invalid_two_factor_code');
      await t
        .http()
        .post('/api/auth/2fa/enable')
        .set('Authorization', staff.auth)
        .send({ code: codeOf(setup.body.secret, -1) })
        .expect(200);

      const first = await login(staff.email, staff.password).expect(200);
      expect(first.body).toEqual({
        two_factor_required: true,
        challenge_token: expect.any(String),
        expires_in: 300,
      });
      expect(first.body.access_token).toBeUndefined();
      const bad = await t
        .http()
        .post('/api/auth/login/2fa')
        .send({ challenge_token: first.body.challenge_token, code: 'abcdef' })
        .expect(401);
      expect(bad.body.code).toBe('invalid_two_factor_code');
      const done = await t
        .http()
        .post('/api/auth/login/2fa')
        .send({ challenge_token: first.body.challenge_token, code: codeOf(setup.body.secret) })
        .expect(200);
      expect(done.body.user).toMatchObject({ user_id: staff.user_id, two_factor_enabled: true });
      // A challenge is good for one sign-in (asked with an unspent code, the next period's).
      const reused = await t
        .http()
        .post('/api/auth/login/2fa')
        .send({ challenge_token: first.body.challenge_token, code: codeOf(setup.body.secret, 1) })
        .expect(401);
      expect(reused.body.code).toBe('invalid_two_factor_challenge');
    });

    it('accepts a code once: the same code, or an earlier one, is refused afterwards', async () => {
      const staff = await t.createUser({ staff: 'manager' });
      const secret = await enrol(staff);
      const code = codeOf(secret);
      const signIn = async (typed: string) => {
        const first = await login(staff.email, staff.password).expect(200);
        return t
          .http()
          .post('/api/auth/login/2fa')
          .send({ challenge_token: first.body.challenge_token, code: typed });
      };
      expect((await signIn(code)).status).toBe(200);
      const replayed = await signIn(code);
      expect(replayed.status).toBe(401);
      expect(replayed.body).toMatchObject({
        code: 'two_factor_code_used',
        message:
          'This code was used already. Wait for the next code your authenticator app shows, then type it.',
      });
      // The enrolment's code (the period before) is spent too; the next period's is not.
      expect((await signIn(codeOf(secret, -1))).body.code).toBe('two_factor_code_used');
      expect((await signIn(codeOf(secret, 1))).status).toBe(200);
      // Turning it off with a spent code is refused as well.
      const off = await t
        .http()
        .post('/api/auth/2fa/disable')
        .set('Authorization', staff.auth)
        .send({ password: staff.password, code: codeOf(secret, 1) })
        .expect(400);
      expect(off.body.code).toBe('two_factor_code_used');
    });

    it('does not let a one-time sign-in token skip the second factor', async () => {
      const staff = await t.createUser({ staff: 'manager' });
      await enrol(staff);
      const { token } = await t.app.get(AuthService).issueSignInToken(staff.user_id);
      const res = await t.http().post('/api/auth/token').send({ token }).expect(403);
      expect(res.body.message).toContain('two-factor');
    });

    it('refuses enrolment to customers (403)', async () => {
      const me = await t.createUser();
      await t.http().post('/api/auth/2fa/setup').set('Authorization', me.auth).expect(403);
    });

    it('turns off with the current password and a code', async () => {
      const staff = await t.createUser({ staff: 'manager' });
      const secret = await enrol(staff);
      const wrong = await t
        .http()
        .post('/api/auth/2fa/disable')
        .set('Authorization', staff.auth)
        .send({ password: 'nope', code: codeOf(secret) })
        .expect(403);
      expect(wrong.body.code).toBe('password_incorrect');
      await t
        .http()
        .post('/api/auth/2fa/disable')
        .set('Authorization', staff.auth)
        .send({ password: staff.password, code: codeOf(secret) })
        .expect(200);
      const plain = await login(staff.email, staff.password).expect(200);
      expect(plain.body.access_token).toEqual(expect.any(String));
    });
  });

  describe('password re-entry', () => {
    it('deletes the account only with the current password', async () => {
      const me = await t.createUser();
      await t.http().delete('/api/users').set('Authorization', me.auth).expect(400);
      const wrong = await t
        .http()
        .delete('/api/users')
        .set('Authorization', me.auth)
        .send({ password: 'wrong' })
        .expect(403);
      expect(wrong.body.code).toBe('password_incorrect');
      expect(wrong.body.message).toBe('Your current password is not correct. Please type it again.');
      await t
        .http()
        .delete('/api/users')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(204);
    });

    it('locks after 5 wrong passwords like failed sign-ins (429 login_locked), so a stolen session cannot guess it', async () => {
      const me = await t.createUser();
      for (let i = 0; i < 5; i++) {
        const res = await createKey(me, { password: `guess-${i}-x1` }).expect(403);
        expect(res.body.code).toBe('password_incorrect');
      }
      const locked = await createKey(me).expect(429);
      expect(locked.body.code).toBe('login_locked');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      await login(me.email, me.password).expect(429);
      await t.db.query(
        `UPDATE users SET login_locked_until = now() - interval '1 second' WHERE user_id = $1`,
        [me.user_id],
      );
      // The right password once the lock is over works and clears the count.
      await createKey(me).expect(201);
      const [row] = await t.db.query(`SELECT login_failures FROM users WHERE user_id = $1`, [me.user_id]);
      expect(row.login_failures).toBe(0);
    });

    it('edits a secret setting only with the current password; other settings need none', async () => {
      const admin = await t.createUser({ staff: 'admin' });
      const put = (body: Record<string, unknown>) =>
        t.http().put('/api/appconfig').set('Authorization', admin.auth).send(body);
      await put({ config: [{ key: 'tagline', value: 'No password needed' }] }).expect(200);
      const secret = [{ key: 'stripe_private_key', value: 'sk_live_value_1234567' }];
      await put({ config: secret }).expect(400);
      const wrong = await put({ config: secret, password: 'wrong' }).expect(403);
      expect(wrong.body.code).toBe('password_incorrect');
      const [before] = await t.db.query(`SELECT value FROM app_config WHERE key = 'stripe_private_key'`);
      expect(before.value).toBeNull();
      await put({ config: secret, password: admin.password }).expect(200);
      // The masked value sent back unchanged is no edit.
      const list = await t.http().get('/api/appconfig/admin').set('Authorization', admin.auth).expect(200);
      const masked = list.body.config.find((e: { key: string }) => e.key === 'stripe_private_key').value;
      await put({ config: [{ key: 'stripe_private_key', value: masked }] }).expect(200);
    });
  });

  describe('session lifetime', () => {
    it('refuses to refresh a session older than SESSION_MAX_DAYS (90), however recently refreshed', async () => {
      const me = await t.createUser();
      const session = (await login(me.email, me.password).expect(200)).body;
      const [{ session_id }] = await t.db.query(
        `SELECT session_id FROM sessions WHERE user_id = $1 ORDER BY "createdAt" DESC LIMIT 1`,
        [me.user_id],
      );
      await t.db.query(
        `UPDATE sessions SET "createdAt" = now() - interval '89 days 23 hours' WHERE session_id = $1`,
        [session_id],
      );
      const refreshed = await t
        .http()
        .post('/api/auth/refresh')
        .send({ refresh_token: session.refresh_token })
        .expect(200);
      // The new expiry is capped at the absolute end, an hour away, not 30 days.
      const [{ expires_at }] = await t.db.query(`SELECT expires_at FROM sessions WHERE session_id = $1`, [
        session_id,
      ]);
      expect(new Date(expires_at).getTime() - Date.now()).toBeLessThan(61 * 60 * 1000);

      await t.db.query(
        `UPDATE sessions SET "createdAt" = now() - interval '90 days 1 minute' WHERE session_id = $1`,
        [session_id],
      );
      const res = await t
        .http()
        .post('/api/auth/refresh')
        .send({ refresh_token: refreshed.body.refresh_token })
        .expect(401);
      expect(res.body.code).toBe('token_expired');
      expect(res.body.message).toContain('maximum length');
    });
  });
});

describe('staff admins when STAFF_2FA_REQUIRED=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ STAFF_2FA_REQUIRED: 'true' });
  });
  afterAll(() => t.close());

  it('can sign in only to enrol; once enrolled the back office opens', async () => {
    const admin = await t.createUser({ staff: 'admin' });
    const me = await t.http().get('/api/users').set('Authorization', admin.auth).expect(200);
    expect(me.body.user).toMatchObject({ two_factor_required: true, two_factor_enabled: false });
    const blocked = await t.http().get('/api/staff/admin/all').set('Authorization', admin.auth).expect(403);
    expect(blocked.body.code).toBe('two_factor_enrolment_required');
    await t.http().get('/api/conversations').set('Authorization', admin.auth).expect(403);

    const setup = await t.http().post('/api/auth/2fa/setup').set('Authorization', admin.auth).expect(200);
    await t
      .http()
      .post('/api/auth/2fa/enable')
      .set('Authorization', admin.auth)
      .send({ code: codeOf(setup.body.secret) })
      .expect(200);
    await t.http().get('/api/staff/admin/all').set('Authorization', admin.auth).expect(200);
    const after = await t.http().get('/api/users').set('Authorization', admin.auth).expect(200);
    expect(after.body.user.two_factor_required).toBe(false);
  });

  it('leaves staff managers and customers alone', async () => {
    const manager = await t.createUser({ staff: 'manager' });
    await t.http().get('/api/users/email?email=a@example.com').set('Authorization', manager.auth).expect(404);
    const customer = await t.createUser();
    await t.http().get('/api/conversations').set('Authorization', customer.auth).expect(200);
  });
});

describe('auth rate limits per account and per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      AUTH_RATE_LIMIT_PER_MINUTE: '6',
      AUTH_ACCOUNT_RATE_LIMIT_PER_MINUTE: '3',
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => t.close());

  const attempt = (email: string, address: string) =>
    t.http().post('/api/auth/login').set('X-Forwarded-For', address).send({ email, password: 'whatever' });

  it('answers 429 with Retry-After once one account is tried too often, from any address', async () => {
    for (let i = 0; i < 3; i++)
      expect((await attempt('target@example.com', `10.0.0.${i + 1}`)).status).toBe(401);
    const res = await attempt('target@example.com', '10.0.0.9');
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect(res.body.message).toContain('this account');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt('someone-else@example.com', '10.0.0.9')).status).toBe(401);
  });

  it('counts per client address behind a trusted proxy, in Redis', async () => {
    for (let i = 0; i < 6; i++) expect((await attempt(`p${i}@example.com`, '10.1.1.1')).status).toBe(401);
    const res = await attempt('p9@example.com', '10.1.1.1');
    expect(res.status).toBe(429);
    expect(res.body.message).toContain('your network');
    expect((await attempt('p10@example.com', '10.1.1.2')).status).toBe(401);

    const redis = new IORedis(TEST_REDIS_URL);
    try {
      expect(await redis.get(`${t.env.redisPrefix}:rl:auth:ip:10.1.1.1`)).toBe('7');
    } finally {
      await redis.quit();
    }
  });
});

describe('auth rate limits without a trusted proxy and without Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: '' });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For (TRUST_PROXY off) and counts in this process', async () => {
    const attempt = (address: string) =>
      t.http().post('/api/auth/refresh').set('X-Forwarded-For', address).send({ refresh_token: 'nope' });
    expect((await attempt('10.0.0.1')).status).toBe(401);
    expect((await attempt('10.0.0.2')).status).toBe(401);
    expect((await attempt('10.0.0.3')).status).toBe(429);
  });
});
