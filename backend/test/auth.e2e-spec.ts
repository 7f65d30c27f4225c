import { AuthService } from '../src/modules/auth/auth.service';
import { FirstAdminService } from '../src/modules/auth/first-admin.service';
import { MailService } from '../src/modules/mail/mail.service';
import { startTestApp, TestApp } from './harness';

const signupBody = (over: Record<string, unknown> = {}) => ({
  name: 'Ana',
  last_name: 'Pérez',
  email: `ana-${Math.random().toString(36).slice(2, 8)}@example.com`,
  password: 'secret123',
  phone: '(555) 123-4567',
  signup_reason: 'Recommendation',
  ...over,
});

describe('auth API', () => {
  let t: TestApp;
  let mail: MailService;

  beforeAll(async () => {
    t = await startTestApp();
    mail = t.app.get(MailService);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  /** Signs up through the API and answers the session it gets. */
  async function signup(over: Record<string, unknown> = {}) {
    const body = signupBody(over);
    const res = await t.http().post('/api/auth/signup').send(body).expect(201);
    return {
      body,
      session: res.body as { access_token: string; refresh_token: string; user: { user_id: number } },
    };
  }

  describe('POST /api/auth/signup', () => {
    it('creates the account, signs it in and queues the welcome email', async () => {
      const welcome = jest.spyOn(mail, 'sendWelcome');
      const res = await t
        .http()
        .post('/api/auth/signup')
        .send(signupBody({ email: '  New.Person@Example.COM ', signup_reason: 'My cousin told me' }))
        .expect(201);
      expect(res.body).toMatchObject({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        expires_in: 900,
        user: {
          name: 'Ana',
          last_name: 'Pérez',
          email: 'new.person@example.com',
          phone: '5551234567',
          signup_reason: 'My cousin told me',
          has_access: false,
          staff: null,
          api_key: null,
        },
      });
      expect(res.body.user).not.toHaveProperty('password_hash');
      expect(welcome).toHaveBeenCalledWith(expect.objectContaining({ email: 'new.person@example.com' }));
      const me = await t.http().get('/api/users').set('Authorization', `Bearer ${res.body.access_token}`);
      expect(me.status).toBe(200);
      expect(me.body.user.email).toBe('new.person@example.com');
    });

    it.each([
      ['name', { name: '' }, 'Name is invalid.'],
      ['name', { name: undefined }, 'Name is invalid.'],
      ['last_name', { last_name: '   ' }, 'Last name is invalid.'],
      ['email', { email: 'not-an-email' }, 'Email is invalid.'],
      ['password', { password: '12345' }, 'Password must be 6 characters long.'],
      ['phone', { phone: '12345' }, 'Phone number is invalid.'],
      ['phone', { phone: '+52 55 1234 5678' }, 'Phone number is invalid.'],
      ['phone', { phone: undefined }, 'Phone number is invalid.'],
    ])('answers 400 with the spec message when %s is wrong (%j)', async (field, over, message) => {
      const res = await t.http().post('/api/auth/signup').send(signupBody(over)).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed', message });
      expect(res.body.errors).toEqual([{ field, message }]);
    });

    it('lists every failed field at once', async () => {
      const res = await t
        .http()
        .post('/api/auth/signup')
        .send({ name: '', last_name: '', email: 'x', password: '1', phone: '1' })
        .expect(400);
      expect(res.body.errors.map((e: { message: string }) => e.message).sort()).toEqual(
        [
          'Email is invalid.',
          'Last name is invalid.',
          'Name is invalid.',
          'Password must be 6 characters long.',
          'Phone number is invalid.',
        ].sort(),
      );
    });

    it('answers Spanish callers with the Spanish texts for empty name, email and phone', async () => {
      const res = await t
        .http()
        .post('/api/auth/signup')
        .set('Accept-Language', 'es-MX,es;q=0.9')
        .send(signupBody({ name: ' ', email: '', phone: '' }))
        .expect(400);
      expect(res.body.message).toBe('Ingresa tu nombre');
      expect(res.body.errors).toEqual([
        { field: 'name', message: 'Ingresa tu nombre' },
        { field: 'email', message: 'Ingresa tu correo' },
        { field: 'phone', message: 'Ingresa tu telefono' },
      ]);
    });

    it('answers 400 when the sign-up reason is longer than 200 characters', async () => {
      const res = await t
        .http()
        .post('/api/auth/signup')
        .send(signupBody({ signup_reason: 'x'.repeat(201) }))
        .expect(400);
      expect(res.body.errors[0].field).toBe('signup_reason');
    });

    it('answers 400 when the confirmation differs from the password', async () => {
      const res = await t
        .http()
        .post('/api/auth/signup')
        .send(signupBody({ confirm_password: 'other123' }))
        .expect(400);
      expect(res.body.message).toBe('Passwords do not match.');
    });

    it('answers 412 when the email exists, whatever its case', async () => {
      const { body } = await signup();
      const res = await t
        .http()
        .post('/api/auth/signup')
        .send(signupBody({ email: ` ${body.email.toUpperCase()} ` }))
        .expect(412);
      expect(res.body).toMatchObject({
        code: 'email_exists',
        message: 'You already have an account, please login.',
      });
    });

    it('answers 403 when sign-up is disabled in the app config', async () => {
      await t.db.query(`UPDATE app_config SET value = 'false' WHERE key = 'signup_enabled'`);
      try {
        const res = await t.http().post('/api/auth/signup').send(signupBody()).expect(403);
        expect(res.body.code).toBe('signup_disabled');
      } finally {
        await t.db.query(`UPDATE app_config SET value = 'true' WHERE key = 'signup_enabled'`);
      }
      await t.http().post('/api/auth/signup').send(signupBody()).expect(201);
    });
  });

  describe('POST /api/auth/login', () => {
    it('signs in with the right password, whatever the email case', async () => {
      const { body } = await signup();
      const res = await t
        .http()
        .post('/api/auth/login')
        .send({ email: body.email.toUpperCase(), password: body.password })
        .expect(200);
      expect(res.body).toMatchObject({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        user: { email: body.email },
      });
    });

    it.each([
      ['a wrong password', true],
      ['an unknown email', false],
    ])('answers 401 with the spec text for %s', async (_case, known) => {
      const { body } = await signup();
      const res = await t
        .http()
        .post('/api/auth/login')
        .send({
          email: known ? body.email : 'nobody@example.com',
          password: known ? 'wrong-pass' : body.password,
        })
        .expect(401);
      expect(res.body).toMatchObject({
        code: 'invalid_credentials',
        message: 'Email or password is incorrect, please try again.',
      });
    });
  });

  describe('sessions', () => {
    it('rotates the refresh token and revokes the session when a spent one comes back', async () => {
      const { session } = await signup();
      const first = await t
        .http()
        .post('/api/auth/refresh')
        .send({ refresh_token: session.refresh_token })
        .expect(200);
      expect(first.body.refresh_token).not.toBe(session.refresh_token);
      await t.http().get('/api/users').set('Authorization', `Bearer ${first.body.access_token}`).expect(200);

      const reused = await t
        .http()
        .post('/api/auth/refresh')
        .send({ refresh_token: session.refresh_token })
        .expect(401);
      expect(reused.body.code).toBe('refresh_token_reused');

      // The whole session is gone: the newest pair no longer works either.
      const after = await t
        .http()
        .post('/api/auth/refresh')
        .send({ refresh_token: first.body.refresh_token })
        .expect(401);
      expect(after.body.code).toBe('session_ended');
      await t.http().get('/api/users').set('Authorization', `Bearer ${first.body.access_token}`).expect(401);
    });

    it('answers 401 for an unknown refresh token', async () => {
      const res = await t.http().post('/api/auth/refresh').send({ refresh_token: 'nope' }).expect(401);
      expect(res.body.code).toBe('invalid_refresh_token');
    });

    it('answers 401 token_expired when the session has expired', async () => {
      const { session } = await signup();
      await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
        session.user.user_id,
      ]);
      const res = await t
        .http()
        .post('/api/auth/refresh')
        .send({ refresh_token: session.refresh_token })
        .expect(401);
      expect(res.body.code).toBe('token_expired');
    });

    it('ends the session on logout, so its access token stops working at once', async () => {
      const { session } = await signup();
      const auth = `Bearer ${session.access_token}`;
      await t.http().get('/api/users').set('Authorization', auth).expect(200);
      await t.http().post('/api/auth/logout').send({ refresh_token: session.refresh_token }).expect(204);
      const res = await t.http().get('/api/users').set('Authorization', auth).expect(401);
      expect(res.body.code).toBe('session_ended');
      await t.http().post('/api/auth/refresh').send({ refresh_token: session.refresh_token }).expect(401);
    });

    it('leaves other sessions of the user open on logout', async () => {
      const { body, session } = await signup();
      const other = await t
        .http()
        .post('/api/auth/login')
        .send({ email: body.email, password: body.password });
      await t.http().post('/api/auth/logout').send({ refresh_token: session.refresh_token }).expect(204);
      await t.http().get('/api/users').set('Authorization', `Bearer ${other.body.access_token}`).expect(200);
    });
  });

  describe('password recovery', () => {
    it('answers 404 with the spec text for an unknown email', async () => {
      const res = await t.http().post('/api/auth/recovery').send({ email: 'ghost@example.com' }).expect(404);
      expect(res.body).toMatchObject({
        code: 'account_not_found',
        message:
          'We did not found any account with this email. Could your account be under a different email?',
      });
    });

    async function requestReset(email: string): Promise<string> {
      const sent = jest.spyOn(mail, 'sendResetPassword');
      const res = await t.http().post('/api/auth/recovery').send({ email }).expect(200);
      expect(res.body).toEqual({});
      expect(sent).toHaveBeenCalledTimes(1);
      const link = sent.mock.calls[0][1];
      expect(link.startsWith(`${t.env.publicUrl}/auth/reset-password?token=`)).toBe(true);
      sent.mockRestore();
      return new URL(link).searchParams.get('token')!;
    }

    it('resets the password once, through the emailed link, and ends every session', async () => {
      const { body, session } = await signup();
      const token = await requestReset(`  ${body.email.toUpperCase()} `);

      await t.http().post('/api/auth/reset-password').send({ token, password: 'newpass1' }).expect(200);
      await t.http().get('/api/users').set('Authorization', `Bearer ${session.access_token}`).expect(401);
      await t.http().post('/api/auth/refresh').send({ refresh_token: session.refresh_token }).expect(401);
      await t.http().post('/api/auth/login').send({ email: body.email, password: body.password }).expect(401);
      await t.http().post('/api/auth/login').send({ email: body.email, password: 'newpass1' }).expect(200);

      const again = await t
        .http()
        .post('/api/auth/reset-password')
        .send({ token, password: 'another1' })
        .expect(400);
      expect(again.body.code).toBe('invalid_reset_token');
    });

    it('refuses an expired reset link', async () => {
      const { body } = await signup();
      const token = await requestReset(body.email);
      await t.db.query(
        `UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password'`,
      );
      const res = await t
        .http()
        .post('/api/auth/reset-password')
        .send({ token, password: 'newpass1' })
        .expect(400);
      expect(res.body.code).toBe('reset_token_expired');
      await t.http().post('/api/auth/login').send({ email: body.email, password: body.password }).expect(200);
    });

    it('keeps the password rule on reset', async () => {
      const { body } = await signup();
      const token = await requestReset(body.email);
      const res = await t
        .http()
        .post('/api/auth/reset-password')
        .send({ token, password: '123' })
        .expect(400);
      expect(res.body.message).toBe('Password must be 6 characters long.');
    });
  });

  describe('one-time sign-in tokens', () => {
    it('exchanges a token once for a session of its user', async () => {
      const { session } = await signup();
      const { token, expires_at } = await t.app.get(AuthService).issueSignInToken(session.user.user_id);
      expect(expires_at.getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
      expect(expires_at.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);

      const res = await t.http().post('/api/auth/token').send({ token }).expect(200);
      expect(res.body.user.user_id).toBe(session.user.user_id);
      await t.http().get('/api/users').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);

      const again = await t.http().post('/api/auth/token').send({ token }).expect(401);
      expect(again.body.code).toBe('invalid_sign_in_token');
    });

    it('refuses an expired sign-in token', async () => {
      const { session } = await signup();
      const { token } = await t.app.get(AuthService).issueSignInToken(session.user.user_id);
      await t.db.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
        session.user.user_id,
      ]);
      const res = await t.http().post('/api/auth/token').send({ token }).expect(401);
      expect(res.body.code).toBe('sign_in_token_expired');
    });

    it('does not accept a reset token as a sign-in token', async () => {
      const { body } = await signup();
      const sent = jest.spyOn(mail, 'sendResetPassword');
      await t.http().post('/api/auth/recovery').send({ email: body.email }).expect(200);
      const token = new URL(sent.mock.calls[0][1]).searchParams.get('token');
      await t.http().post('/api/auth/token').send({ token }).expect(401);
    });
  });
});

describe('auth rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 once a client exceeds the auth limit', async () => {
    const attempt = () =>
      t.http().post('/api/auth/login').send({ email: 'a@example.com', password: 'whatever' });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
    const res = await attempt();
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
  });
});

describe('first staff admin', () => {
  it('creates the ADMIN_EMAIL account as staff admin on an empty database', async () => {
    const t = await startTestApp({ ADMIN_EMAIL: 'Boss@Example.com', ADMIN_PASSWORD: 'boss-pass-1' });
    try {
      const res = await t
        .http()
        .post('/api/auth/login')
        .send({ email: 'boss@example.com', password: 'boss-pass-1' })
        .expect(200);
      expect(res.body.user.staff).toMatchObject({ role: 'admin' });
      expect(res.body.user.has_access).toBe(true);
      expect(await t.app.get(FirstAdminService).ensureFirstAdmin()).toEqual({ action: 'exists' });
    } finally {
      await t.close();
    }
  });

  it('never promotes an existing account as it is: refuses without ADMIN_PASSWORD, takes it over with it; creates admin@localhost in embedded mode, and otherwise only warns', async () => {
    const t = await startTestApp();
    try {
      const first = t.app.get(FirstAdminService);
      const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM staff`);
      expect(count).toBe(0);
      expect(await first.ensureFirstAdmin()).toEqual({ action: 'none' });

      const user = await t.createUser();
      await expect(
        first.ensureFirstAdmin({ ...t.env, adminEmail: user.email, adminPassword: null }),
      ).rejects.toThrow(/already exists and is not staff.*ADMIN_PASSWORD/);
      expect((await t.db.query(`SELECT count(*)::int AS count FROM staff`))[0].count).toBe(0);

      expect(
        await first.ensureFirstAdmin({ ...t.env, adminEmail: user.email, adminPassword: 'operator-pass-1' }),
      ).toEqual({ action: 'took_over', email: user.email });
      // The session of whoever registered the address ended; the operator's password works.
      await t.http().get('/api/users').set('Authorization', user.auth).expect(401);
      await t.http().post('/api/auth/login').send({ email: user.email, password: user.password }).expect(401);
      const me = await t
        .http()
        .post('/api/auth/login')
        .send({ email: user.email, password: 'operator-pass-1' })
        .expect(200);
      expect(me.body.user.staff.role).toBe('admin');

      await t.db.query(`DELETE FROM staff`);
      const outcome = await first.ensureFirstAdmin({ ...t.env, databaseUrl: null });
      expect(outcome.action).toBe('created_with_random_password');
      const password = (outcome as { password: string }).password;
      const login = await t
        .http()
        .post('/api/auth/login')
        .send({ email: 'admin@localhost', password })
        .expect(200);
      expect(login.body.user.staff.role).toBe('admin');
    } finally {
      await t.close();
    }
  });
});
