import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from '../src/modules/files/testing/sample-files';
import { MailService } from '../src/modules/mail/mail.service';
import { startTestApp, TestApp } from './harness';

describe('users API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  describe('GET /api/users', () => {
    it('answers the signed-in user without secrets', async () => {
      const me = await t.createUser({ name: 'Lu', last_name: 'Díaz' });
      const res = await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
      expect(res.body.user).toMatchObject({
        user_id: me.user_id,
        name: 'Lu',
        last_name: 'Díaz',
        email: me.email,
        lang: 'en',
        phone: null,
        api_key: null,
        manual_mode: false,
        dark_mode: false,
        show_video: true,
        has_access: false,
        staff: null,
        default_organization: null,
        birthday: null,
        value: 0,
      });
      expect(typeof res.body.user.uid).toBe('string');
      for (const secret of ['password_hash', 'api_key_hash', 'api_key_last4']) {
        expect(res.body.user).not.toHaveProperty(secret);
      }
    });

    it('shows staff their role and gives them access', async () => {
      const admin = await t.createUser({ staff: 'admin' });
      const res = await t.http().get('/api/users').set('Authorization', admin.auth).expect(200);
      expect(res.body.user.staff).toEqual({ staff_id: expect.any(Number), role: 'admin' });
      expect(res.body.user.has_access).toBe(true);
    });

    it('answers 401 without a session', async () => {
      await t.http().get('/api/users').expect(401);
    });

    it('accepts the organization scope of a member and refuses a foreign one', async () => {
      const me = await t.createUser();
      const mine = await t.createOrganization();
      const foreign = await t.createOrganization();
      await t.addMember(mine, me.user_id, 3);
      await t.http().get(`/api/users?organization_id=${mine}`).set('Authorization', me.auth).expect(200);
      await t.http().get(`/api/users?organization_id=${foreign}`).set('Authorization', me.auth).expect(404);
    });
  });

  describe('PUT /api/users', () => {
    it('saves profile and settings, shaping the phone to 10 digits', async () => {
      const me = await t.createUser();
      const res = await t
        .http()
        .put('/api/users')
        .set('Authorization', me.auth)
        .send({
          name: ' Luz ',
          last_name: 'Mar',
          company: 'Acme',
          phone: '(555) 123-4567',
          birthday: '1990-05-17',
          lang: 'es',
          zappier_webhook_url: 'https://hooks.zapier.com/hooks/catch/1/abc',
          manual_mode: true,
          dark_mode: true,
          instagram: '@luz',
          file: '/api/files/1/content',
          show_video: false,
        })
        .expect(200);
      expect(res.body.user).toMatchObject({
        name: 'Luz',
        last_name: 'Mar',
        company: 'Acme',
        phone: '5551234567',
        birthday: '1990-05-17',
        lang: 'es',
        zappier_webhook_url: 'https://hooks.zapier.com/hooks/catch/1/abc',
        manual_mode: true,
        dark_mode: true,
        instagram: '@luz',
        file: '/api/files/1/content',
        show_video: false,
      });
      const again = await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
      expect(again.body.user.phone).toBe('5551234567');
      expect(again.body.user.birthday).toBe('1990-05-17');
    });

    it('changes only the fields sent and clears the ones sent empty', async () => {
      const me = await t.createUser({ name: 'Keep' });
      await t
        .http()
        .put('/api/users')
        .set('Authorization', me.auth)
        .send({ company: 'Acme', phone: '5551234567' })
        .expect(200);
      const res = await t
        .http()
        .put('/api/users')
        .set('Authorization', me.auth)
        .send({ company: '', phone: null })
        .expect(200);
      expect(res.body.user).toMatchObject({ name: 'Keep', company: null, phone: null });
    });

    it.each([
      [{ phone: '12-34' }, 'Phone number is invalid.'],
      [{ birthday: '1990-02-30' }, 'Birthday must be a real date written YYYY-MM-DD.'],
      [{ birthday: '17/05/1990' }, 'Birthday must be a real date written YYYY-MM-DD.'],
      [{ birthday: '2999-01-01' }, 'Birthday must be a real date written YYYY-MM-DD.'],
      [{ name: '' }, 'Name is invalid.'],
      [{ name: null }, 'Name is invalid.'],
      [{ last_name: ' ' }, 'Last name is invalid.'],
      [{ lang: 'fr' }, 'Language must be en or es.'],
      [{ zappier_webhook_url: 'ftp://example.com/hook' }, 'The webhook URL must be an http or https URL.'],
      [{ file: 'javascript:alert(1)' }, 'The image must be an http(s) URL or a path on this site.'],
      [{ dark_mode: 'yes' }, 'dark_mode must be true or false.'],
      [{ email: 'new@example.com' }, 'Unknown field "email".'],
    ])('answers 400 for %j', async (body, message) => {
      const me = await t.createUser();
      const res = await t.http().put('/api/users').set('Authorization', me.auth).send(body).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', message });
    });

    it('sets the default organization only to one the user belongs to', async () => {
      const me = await t.createUser();
      const mine = await t.createOrganization();
      const foreign = await t.createOrganization();
      await t.addMember(mine, me.user_id, 3);

      const refused = await t
        .http()
        .put('/api/users')
        .set('Authorization', me.auth)
        .send({ default_organization: foreign })
        .expect(404);
      expect(refused.body.code).toBe('organization_not_found');

      const res = await t
        .http()
        .put('/api/users')
        .set('Authorization', me.auth)
        .send({ default_organization: mine })
        .expect(200);
      expect(res.body.user.default_organization).toBe(mine);

      const cleared = await t
        .http()
        .put('/api/users')
        .set('Authorization', me.auth)
        .send({ default_organization: null })
        .expect(200);
      expect(cleared.body.user.default_organization).toBeNull();
    });
  });

  describe('personal API key', () => {
    it('is shown once, works as a bearer, is replaced by a new one and stops working when revoked', async () => {
      const me = await t.createUser();
      const created = await t
        .http()
        .post('/api/users/api-key')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(201);
      const key: string = created.body.api_key;
      expect(key).toMatch(/^as_[A-Za-z0-9_-]{43}$/);

      const viaKey = await t.http().get('/api/users').set('Authorization', `Bearer ${key}`).expect(200);
      expect(viaKey.body.user.user_id).toBe(me.user_id);
      expect(viaKey.body.user.api_key).toBe(`as_…${key.slice(-4)}`);
      const [row] = await t.db.query(`SELECT api_key_hash FROM users WHERE user_id = $1`, [me.user_id]);
      expect(row.api_key_hash).not.toContain(key.slice(3));

      const second = await t
        .http()
        .post('/api/users/api-key')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(201);
      expect(second.body.api_key).not.toBe(key);
      const old = await t.http().get('/api/users').set('Authorization', `Bearer ${key}`).expect(401);
      expect(old.body.code).toBe('invalid_api_key');

      await t.http().delete('/api/users/api-key').set('Authorization', me.auth).expect(204);
      await t.http().get('/api/users').set('Authorization', `Bearer ${second.body.api_key}`).expect(401);
      const after = await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
      expect(after.body.user.api_key).toBeNull();
    });

    it('cannot create keys or delete the account when used itself', async () => {
      const me = await t.createUser();
      const { body } = await t
        .http()
        .post('/api/users/api-key')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(201);
      const viaKey = `Bearer ${body.api_key}`;
      const res = await t
        .http()
        .post('/api/users/api-key')
        .set('Authorization', viaKey)
        .send({ password: me.password })
        .expect(403);
      expect(res.body.code).toBe('session_required');
      await t
        .http()
        .delete('/api/users')
        .set('Authorization', viaKey)
        .send({ password: me.password })
        .expect(403);
      await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
    });
  });

  describe('DELETE /api/users', () => {
    it('deletes the own account and ends its sessions at once', async () => {
      const me = await t.createUser();
      await t
        .http()
        .delete('/api/users')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(204);
      await t.http().get('/api/users').set('Authorization', me.auth).expect(401);
      const rows = await t.db.query(`SELECT 1 FROM users WHERE user_id = $1`, [me.user_id]);
      expect(rows).toHaveLength(0);
      const sessions = await t.db.query(`SELECT 1 FROM sessions WHERE user_id = $1`, [me.user_id]);
      expect(sessions).toHaveLength(0);
      await t.http().post('/api/auth/login').send({ email: me.email, password: me.password }).expect(401);
    });

    it('removes the stored bytes of the account’s files', async () => {
      const me = await t.createUser();
      const diskPath = (src: string) => join(t.env.dataDir, 'files', src.split('/').pop()!);
      const srcs: string[] = [];
      for (const name of ['a.png', 'b.png']) {
        const res = await t
          .http()
          .post('/api/files')
          .set('Authorization', me.auth)
          .attach('file', PNG, name)
          .expect(201);
        srcs.push(res.body.file.src);
      }
      const other = await t.createUser();
      const kept = await t
        .http()
        .post('/api/files')
        .set('Authorization', other.auth)
        .attach('file', PNG, 'c.png')
        .expect(201);
      for (const src of srcs) expect(existsSync(diskPath(src))).toBe(true);

      await t
        .http()
        .delete('/api/users')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(204);
      for (const src of srcs) expect(existsSync(diskPath(src))).toBe(false);
      expect(await t.db.query(`SELECT 1 FROM files WHERE user_id = $1`, [me.user_id])).toHaveLength(0);
      expect(existsSync(diskPath(kept.body.file.src))).toBe(true);
    });

    it('answers 409 while the caller has a subscription that still renews, keeping everything, and deletes once it is cancelled', async () => {
      const me = await t.createUser();
      const admin = await t.createUser({ staff: 'admin' });
      const product = (
        await t
          .http()
          .post('/api/products')
          .set('Authorization', admin.auth)
          .send({ name: 'Renewing plan', description: 'Words', price: 1000, word_amount: 1000 })
          .expect(201)
      ).body.product.product_id;
      const [{ purchase_id }] = await t.db.query(
        `INSERT INTO purchases (user_id, product_id, status, amount, provider, stripe_subscription_id)
         VALUES ($1, $2, 'active', 1000, 'stripe', 'sub_own_renewing') RETURNING purchase_id`,
        [me.user_id, product],
      );
      const refused = await t
        .http()
        .delete('/api/users')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(409);
      expect(refused.body).toMatchObject({
        code: 'subscription_renewing',
        message: 'Your subscription still renews. Cancel it in Billing first, then delete your account.',
      });
      await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
      await t.db.query(`UPDATE purchases SET cancel_at_period_end = true WHERE purchase_id = $1`, [
        purchase_id,
      ]);
      await t
        .http()
        .delete('/api/users')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(204);
      // The purchase stays for the books, without an owner.
      expect(await t.db.query(`SELECT user_id FROM purchases WHERE purchase_id = $1`, [purchase_id])).toEqual(
        [{ user_id: null }],
      );
    });

    it('answers 409 when the caller is the only staff admin', async () => {
      await t.db.query(`DELETE FROM staff WHERE role = 'admin'`);
      const admin = await t.createUser({ staff: 'admin' });
      const res = await t
        .http()
        .delete('/api/users')
        .set('Authorization', admin.auth)
        .send({ password: admin.password })
        .expect(409);
      expect(res.body.code).toBe('last_admin');
      await t.createUser({ staff: 'admin' });
      await t
        .http()
        .delete('/api/users')
        .set('Authorization', admin.auth)
        .send({ password: admin.password })
        .expect(204);
    });
  });

  describe('staff tools', () => {
    it.each([
      ['get', '/api/users/email?email=a@example.com'],
      ['get', '/api/users/phone?phone=5551234567'],
      ['post', '/api/users/sendResetPasswordLink'],
      ['post', '/api/users/resetPasswordLink'],
    ] as const)('refuses a customer with 403 on %s %s', async (method, path) => {
      const customer = await t.createUser();
      const req = t.http()[method](path).set('Authorization', customer.auth);
      const res = method === 'post' ? await req.send({ email: customer.email }) : await req;
      expect(res.status).toBe(403);
    });

    it('finds users by email and by phone written with separators', async () => {
      const manager = await t.createUser({ staff: 'manager' });
      const customer = await t.createUser();
      await t.db.query(`UPDATE users SET phone = '5559876543' WHERE user_id = $1`, [customer.user_id]);

      const byEmail = await t
        .http()
        .get(`/api/users/email?email=${encodeURIComponent(customer.email.toUpperCase())}`)
        .set('Authorization', manager.auth)
        .expect(200);
      expect(byEmail.body.user.user_id).toBe(customer.user_id);

      const byPhone = await t
        .http()
        .get(`/api/users/phone?phone=${encodeURIComponent('(555) 987-6543')}`)
        .set('Authorization', manager.auth)
        .expect(200);
      expect(byPhone.body.user.user_id).toBe(customer.user_id);
    });

    it('answers 404 with the spec text when no account has the phone', async () => {
      const manager = await t.createUser({ staff: 'manager' });
      const res = await t
        .http()
        .get('/api/users/phone?phone=5550000001')
        .set('Authorization', manager.auth)
        .expect(404);
      expect(res.body.message).toBe("We're sorry, we couldn't find an account with that number.");
      const byEmail = await t
        .http()
        .get('/api/users/email?email=nobody@example.com')
        .set('Authorization', manager.auth)
        .expect(404);
      expect(byEmail.body.code).toBe('user_not_found');
    });

    it('emails a reset link on request of an admin', async () => {
      const manager = await t.createUser({ staff: 'admin' });
      const customer = await t.createUser();
      const sent = jest.spyOn(t.app.get(MailService), 'sendResetPassword');
      const res = await t
        .http()
        .post('/api/users/sendResetPasswordLink')
        .set('Authorization', manager.auth)
        .send({ email: customer.email })
        .expect(200);
      expect(res.body).toEqual({});
      expect(sent).toHaveBeenCalledWith(
        expect.objectContaining({ email: customer.email }),
        expect.stringContaining('/auth/reset-password?token='),
      );
      const missing = await t
        .http()
        .post('/api/users/sendResetPasswordLink')
        .set('Authorization', manager.auth)
        .send({ email: 'ghost@example.com' })
        .expect(404);
      expect(missing.body.code).toBe('account_not_found');
    });

    it('answers a working reset link without emailing it', async () => {
      const manager = await t.createUser({ staff: 'admin' });
      const customer = await t.createUser();
      const sent = jest.spyOn(t.app.get(MailService), 'sendResetPassword');
      const res = await t
        .http()
        .post('/api/users/resetPasswordLink')
        .set('Authorization', manager.auth)
        .send({ email: customer.email })
        .expect(200);
      expect(sent).not.toHaveBeenCalled();
      const link = new URL(res.body.link);
      expect(`${link.origin}${link.pathname}`).toBe(`${t.env.publicUrl}/auth/reset-password`);
      await t
        .http()
        .post('/api/auth/reset-password')
        .send({ token: link.searchParams.get('token'), password: 'fromlink1' })
        .expect(200);
      await t
        .http()
        .post('/api/auth/login')
        .send({ email: customer.email, password: 'fromlink1' })
        .expect(200);
    });

    it('lets only staff admins use the password tools (managers get 403)', async () => {
      const manager = await t.createUser({ staff: 'manager' });
      const admin = await t.createUser({ staff: 'admin' });
      const otherStaff = await t.createUser({ staff: 'manager' });
      for (const path of ['/api/users/resetPasswordLink', '/api/users/sendResetPasswordLink']) {
        await t
          .http()
          .post(path)
          .set('Authorization', manager.auth)
          .send({ email: otherStaff.email })
          .expect(403);
      }
      await t
        .http()
        .post('/api/users/resetPasswordLink')
        .set('Authorization', admin.auth)
        .send({ email: otherStaff.email })
        .expect(200);
    });
  });
});
