import { createHmac } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, TestApp, TestUser } from './harness';

/** A product webhook receiver that fails its first `failFirst` calls, then records the signed bodies. */
class Receiver {
  calls: { body: string; signature: string; status: number }[] = [];
  failFirst = 0;
  private server!: Server;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = this.calls.length < this.failFirst ? 500 : 200;
        this.calls.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: String(req.headers['x-avatar-studio-signature'] ?? ''),
          status,
        });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

describe('Billing: products, discounts, purchases, invoices, access', () => {
  let t: TestApp;
  let admin: TestUser;
  let manager: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  const receiver = new Receiver();

  const as = (who: TestUser) => ({
    get: (path: string) => t.http().get(path).set('Authorization', who.auth),
    post: (path: string) => t.http().post(path).set('Authorization', who.auth),
    put: (path: string) => t.http().put(path).set('Authorization', who.auth),
  });
  const balance = async (who: TestUser) => (await as(who).get('/api/words/balance').expect(200)).body.balance;
  const value = async (user_id: number) =>
    Number(
      ((await t.db.query(`SELECT value FROM users WHERE user_id = $1`, [user_id])) as { value: string }[])[0]
        .value,
    );
  const product = async (fields: Record<string, unknown> = {}) =>
    (
      await as(admin)
        .post('/api/products')
        .send({ name: 'Plan', description: 'Words', price: 1000, word_amount: 500, ...fields })
        .expect(201)
    ).body.product as { product_id: number } & Record<string, unknown>;

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    manager = await t.createUser({ staff: 'manager' });
    alice = await t.createUser({ name: 'Alice' });
    bob = await t.createUser({ name: 'Bob' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  describe('products', () => {
    it("lists every broken save rule after 'Validation Errors:'", async () => {
      const res = await as(admin)
        .post('/api/products')
        .send({ name: ' ', price: 0, word_amount: -1, unlimited: false, stripe_product_id: 'prod_1' })
        .expect(400);
      expect(res.body.code).toBe('product_invalid');
      expect(res.body.message).toMatch(/^Validation Errors: /);
      expect(res.body.errors).toEqual([
        'Name is required.',
        'Description is required.',
        'Price must be a number greater than 0 (whole cents).',
        'Word amount must be a positive number unless Unlimited is on.',
        'Stripe price is required when a Stripe product is given.',
      ]);
      const recurring = await as(admin)
        .post('/api/products')
        .send({
          name: 'A',
          description: 'B',
          price: 100,
          word_amount: 1,
          stripe_product_id: 'p',
          stripe_price_id: 'price',
        })
        .expect(400);
      expect(recurring.body.errors).toEqual([
        'Subscription interval and period are required when a Stripe price is given.',
      ]);
    });

    it('applies the form rules: unlimited clears word_amount, a subscription defaults to every 1 month', async () => {
      const p = await product({ unlimited: true, word_amount: 300, is_subscription: true });
      expect(p).toMatchObject({ word_amount: null, subscription_interval: 1, subscription_period: 'month' });
      const trial = await product({ free_trial_length: 7 });
      expect(trial).toMatchObject({ free_trial_period: true, free_trial_length: 7 });
      const both = await as(admin)
        .post('/api/products')
        .send({
          name: 'A',
          description: 'B',
          price: 100,
          word_amount: 1,
          free_trial_length: 3,
          free_trial_end: '2099-01-01',
        })
        .expect(400);
      expect(both.body.errors).toEqual(['Give the free trial as days or as an end date, not both.']);
    });

    it('updates with PUT, lists for staff with search and sort, and shows customers only what they may buy', async () => {
      const p = await product({ name: 'Zeta plan', product_sku: 'Z-1' });
      await as(manager).put('/api/products').send({ product_id: p.product_id, price: 2500 }).expect(200);
      const list = await as(manager)
        .get('/api/products')
        .query({ query: 'zeta', sort: 'price', direction: 'desc' })
        .expect(200);
      expect(list.body.products.map((x: { product_id: number }) => x.product_id)).toEqual([p.product_id]);
      expect(list.body.products[0].price).toBe(2500);
      await as(alice).get('/api/products').expect(403);
      await as(alice).get(`/api/products/${p.product_id}`).expect(200);
      const hidden = await product({ available: false });
      await as(alice).get(`/api/products/${hidden.product_id}`).expect(404);
      const available = await as(alice).get('/api/products/available').expect(200);
      const ids = available.body.products.map((x: { product_id: number }) => x.product_id);
      expect(ids).toContain(p.product_id);
      expect(ids).not.toContain(hidden.product_id);
    });

    it("sells an organization's products only in its scope, managed by its Admin", async () => {
      const owner = await t.createUser();
      const org = await t.createOrganization();
      await t.addMember(org, owner.user_id, 1);
      const res = await as(owner)
        .post(`/api/products?organization_id=${org}`)
        .send({ name: 'Org plan', description: 'Org words', price: 900, word_amount: 100 })
        .expect(201);
      expect(res.body.product.organization_id).toBe(org);
      await as(alice).get(`/api/products/${res.body.product.product_id}`).expect(404);
      await as(owner)
        .post('/api/products')
        .send({ name: 'X', description: 'Y', price: 1, word_amount: 1 })
        .expect(403);
      const scoped = await as(owner).get(`/api/products/available?organization_id=${org}`).expect(200);
      expect(scoped.body.products.map((x: { name: string }) => x.name)).toEqual(['Org plan']);
    });

    it('fires a signed test purchase to the webhook, retried with back-off until it answers', async () => {
      const p = await product({ webhook_url: receiver.url });
      receiver.failFirst = 1;
      const res = await as(manager)
        .post('/api/purchases/test')
        .send({ product_id: p.product_id, email: 'buyer@example.com', user_id: alice.user_id })
        .expect(202);
      const until = Date.now() + 15_000;
      while (receiver.calls.filter((c) => c.status === 200).length < 1 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 100));
      expect(receiver.calls.map((c) => c.status)).toEqual([500, 200]);
      const ok = receiver.calls[1];
      const body = JSON.parse(ok.body);
      expect(body).toMatchObject({
        id: res.body.event_id,
        type: 'purchase.test',
        email: 'buyer@example.com',
      });
      const secret = (await as(admin).get(`/api/products/${p.product_id}`).expect(200)).body.webhook_secret;
      const [, ts, sig] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(ok.signature)!;
      expect(createHmac('sha256', secret).update(`${ts}.${ok.body}`).digest('hex')).toBe(sig);
      const plain = await product();
      await as(manager).post('/api/purchases/test').send({ product_id: plain.product_id }).expect(400);
      await as(alice).post('/api/purchases/test').send({ product_id: p.product_id }).expect(403);
    });
  });

  describe('discounts', () => {
    it('quotes a percent or fixed code and refuses invalid and used-up ones with the spec texts', async () => {
      const p = await product({ price: 2000 });
      await as(manager).post('/api/discounts').send({ code: 'TEN', type: 'percent', amount: 10 }).expect(201);
      await as(manager)
        .post('/api/discounts')
        .send({ code: 'ONCE', type: 'fixed', amount: 500, product_id: p.product_id, usage_limit_per_user: 1 })
        .expect(201);
      const ten = await as(alice)
        .get('/api/discounts/code/ten')
        .query({ product_id: p.product_id })
        .expect(200);
      expect(ten.body).toMatchObject({ price: 2000, amount_off: 200, discounted_price: 1800 });
      const invalid = await as(alice)
        .get('/api/discounts/code/NOPE')
        .query({ product_id: p.product_id })
        .expect(400);
      expect(invalid.body.message).toBe("We're sorry, that discount is invalid.");
      const other = await product();
      await as(alice).get('/api/discounts/code/ONCE').query({ product_id: other.product_id }).expect(400);
      await as(manager)
        .post('/api/discounts')
        .send({ code: 'LATER', type: 'fixed', amount: 1, starts_at: '2099-01-01' })
        .expect(201);
      await as(alice).get('/api/discounts/code/LATER').query({ product_id: p.product_id }).expect(400);
      await as(manager).post('/api/discounts').send({ code: 'ten', type: 'fixed', amount: 1 }).expect(409);

      // Redeemed once through a purchase, the per-user limit answers 412.
      const purchase = await as(admin)
        .post('/api/purchases/admin')
        .send({ user_id: alice.user_id, product_id: p.product_id, status: 'pending' })
        .expect(201);
      expect(purchase.body.purchase.status).toBe('pending');
      const svc = t.app.get((await import('../src/modules/purchases/purchases.service')).PurchasesService);
      const prod = await t.app
        .get((await import('../src/modules/products/products.service')).ProductsService)
        .findById(p.product_id);
      const { amount } = await svc.createPending({
        user_id: alice.user_id,
        product: prod!,
        payment_method_id: 1,
        provider: 'stripe',
        discount_code: 'ONCE',
      });
      expect(amount).toBe(1500);
      const used = await as(alice)
        .get('/api/discounts/code/ONCE')
        .query({ product_id: p.product_id })
        .expect(412);
      expect(used.body.message).toBe("We're sorry, you cannot use this discount code anymore.");
      await as(bob).get('/api/discounts/code/ONCE').query({ product_id: p.product_id }).expect(200);
      await as(alice).get('/api/discounts').expect(403);
    });
  });

  describe('purchases and access', () => {
    it('gives access with words and lifetime value, and revoking ends the words at once', async () => {
      const p = await product({ word_amount: 700, expiration_days: 30 });
      const carol = await t.createUser();
      const res = await as(admin)
        .post('/api/users/giveAccess')
        .send({ user_id: carol.user_id, product_id: p.product_id, total: 1250 })
        .expect(201);
      expect(res.body.purchase).toMatchObject({ status: 'completed', amount: 1250, payment_method_id: 3 });
      expect(await balance(carol)).toMatchObject({ words: 700, has_access: true });
      expect(await value(carol.user_id)).toBe(12.5);
      const gift = await as(admin)
        .post('/api/users/giveAccess')
        .send({ user_id: carol.user_id, product_id: p.product_id, gift: true })
        .expect(201);
      expect(gift.body.purchase).toMatchObject({ is_gift: true, amount: 0, payment_method_id: 5 });
      expect((await balance(carol)).words).toBe(1400);

      await as(admin)
        .put('/api/users/revokeAccess')
        .send({ purchase_id: res.body.purchase.purchase_id })
        .expect(200);
      expect((await balance(carol)).words).toBe(700);
      await as(admin)
        .put('/api/users/revokeAccess')
        .send({ purchase_id: gift.body.purchase.purchase_id })
        .expect(200);
      expect(await balance(carol)).toMatchObject({ words: 0, has_access: false });
      await as(manager)
        .post('/api/users/giveAccess')
        .send({ user_id: carol.user_id, product_id: p.product_id })
        .expect(403);

      const audit = await as(admin)
        .get('/api/audit-events')
        .query({ action: 'purchase.status_changed', target_user_id: carol.user_id })
        .expect(200);
      expect(audit.body.audit_events.map((e: { details: { to: string } }) => e.details.to)).toEqual(
        expect.arrayContaining(['completed', 'revoked']),
      );
      expect(audit.body.audit_events[0].actor_user_id).toBe(admin.user_id);
    });

    it('keeps the admin transitions: from cancelled or revoked only those two; pending to active grants', async () => {
      const p = await product({ word_amount: 100 });
      const dave = await t.createUser();
      const created = await as(admin)
        .post('/api/purchases/admin')
        .send({ user_id: dave.user_id, product_id: p.product_id, status: 'pending' })
        .expect(201);
      const id = created.body.purchase.purchase_id;
      expect((await balance(dave)).words).toBe(0);
      await as(admin).put('/api/purchases/admin').send({ purchase_id: id, status: 'active' }).expect(200);
      expect((await balance(dave)).words).toBe(100);
      const cancelled = await as(admin)
        .put('/api/purchases/admin')
        .send({ purchase_id: id, status: 'cancelled', cancel_reason: 'Asked by phone' })
        .expect(200);
      expect(cancelled.body.purchase).toMatchObject({ status: 'cancelled', cancel_reason: 'Asked by phone' });
      expect((await balance(dave)).words).toBe(100);
      const back = await as(admin)
        .put('/api/purchases/admin')
        .send({ purchase_id: id, status: 'active' })
        .expect(400);
      expect(back.body.message).toBe('A cancelled purchase can only be cancelled or revoked.');
      await as(admin).put('/api/purchases/admin').send({ purchase_id: id, status: 'bogus' }).expect(400);
      await as(admin).put('/api/purchases/admin').send({ purchase_id: id, status: 'revoked' }).expect(200);
      expect((await balance(dave)).words).toBe(0);
      await as(admin).put('/api/purchases/admin').send({ purchase_id: id, status: 'cancelled' }).expect(200);
      await as(admin).put('/api/purchases/admin').send({ purchase_id: 999999, status: 'active' }).expect(404);
    });

    it('lets a customer read and cancel only their own purchase, with a reason of 10 characters', async () => {
      const p = await product({ is_subscription: true, word_amount: 50 });
      const erin = await t.createUser();
      const res = await as(admin)
        .post('/api/users/giveAccess')
        .send({ user_id: erin.user_id, product_id: p.product_id })
        .expect(201);
      const id = res.body.purchase.purchase_id;
      expect(res.body.purchase).toMatchObject({
        status: 'active',
        subscription_interval: 1,
        subscription_period: 'month',
      });
      await as(erin).get(`/api/purchases/${id}`).expect(200);
      await as(bob).get(`/api/purchases/${id}`).expect(404);
      await as(manager).get(`/api/purchases/${id}`).expect(200);
      const own = await as(erin).get('/api/purchases').expect(200);
      expect(own.body.purchases.map((x: { purchase_id: number }) => x.purchase_id)).toEqual([id]);
      expect(own.body.purchases[0].product.name).toBe('Plan');
      await as(bob)
        .post(`/api/purchases/cancel/${id}`)
        .send({ cancel_reason: 'long enough reason', status: 'cancelled' })
        .expect(404);
      const short = await as(erin)
        .post(`/api/purchases/cancel/${id}`)
        .send({ cancel_reason: 'too short', status: 'cancelled' })
        .expect(400);
      expect(short.body.message).toBe('You must include a cancel reason.');
      await as(erin).post(`/api/purchases/cancel/${id}`).send({ status: 'cancelled' }).expect(400);
      const done = await as(erin)
        .post(`/api/purchases/cancel/${id}`)
        .send({ cancel_reason: 'I do not need it now', status: 'cancelled' })
        .expect(201);
      expect(done.body.purchase).toMatchObject({ status: 'cancelled', cancel_at_period_end: true });
      expect((await balance(erin)).words).toBe(50);
      await as(erin)
        .post(`/api/purchases/cancel/${id}`)
        .send({ cancel_reason: 'I do not need it now' })
        .expect(409);
    });

    it('filters the admin list by status group, type, product and search, 12 a page', async () => {
      const p = await product({ name: 'Filter plan' });
      const frank = await t.createUser({ name: 'Frankfilter' });
      for (let i = 0; i < 13; i++)
        await as(admin)
          .post('/api/purchases/admin')
          .send({ user_id: frank.user_id, product_id: p.product_id, status: i % 2 ? 'pending' : 'active' })
          .expect(201);
      const all = await as(manager)
        .get('/api/purchases/admin')
        .query({ product_id: p.product_id })
        .expect(200);
      expect(all.body).toMatchObject({ total: 13, limit: 12 });
      expect(all.body.purchases).toHaveLength(12);
      expect(all.body.purchases[0].user).toMatchObject({ name: 'Frankfilter' });
      const ok = await as(manager)
        .get('/api/purchases/admin')
        .query({ product_id: p.product_id, status: 'successful' })
        .expect(200);
      expect(ok.body.total).toBe(7);
      const pending = await as(manager)
        .get('/api/purchases/admin')
        .query({ product_id: p.product_id, status: 'pending' })
        .expect(200);
      expect(pending.body.total).toBe(6);
      const failed = await as(manager)
        .get('/api/purchases/admin')
        .query({ product_id: p.product_id, status: 'failed' })
        .expect(200);
      expect(failed.body.total).toBe(0);
      const byName = await as(manager).get('/api/purchases/admin').query({ query: 'frankfil' }).expect(200);
      expect(byName.body.total).toBe(13);
      const invoices = await as(manager)
        .get('/api/purchases/admin')
        .query({ product_id: p.product_id, type: 'invoices' })
        .expect(200);
      expect(invoices.body.total).toBe(0);
      await as(alice).get('/api/purchases/admin').expect(403);
      await as(manager).get('/api/purchases/admin').query({ status: 'weird' }).expect(400);
    });

    it('sells exactly user_limit purchases to 50 concurrent buyers, and answers 412 and 409 with the spec texts', async () => {
      const p = await product({ user_limit: 10 });
      const buyers = await Promise.all(Array.from({ length: 50 }, () => t.createUser()));
      const answers = await Promise.all(
        buyers.map((b) =>
          as(admin).post('/api/users/giveAccess').send({ user_id: b.user_id, product_id: p.product_id }),
        ),
      );
      const codes = answers.map((a) => a.status);
      expect(codes.filter((c) => c === 201)).toHaveLength(10);
      expect(codes.filter((c) => c === 412)).toHaveLength(40);
      expect(answers.find((a) => a.status === 412)!.body.message).toBe(
        "We're sorry, this product cannot be purchase anymore.",
      );
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM purchases WHERE product_id = $1`, [
        p.product_id,
      ]);
      expect(n).toBe(10);

      const once = await product({ limit_per_user: 1 });
      await as(admin)
        .post('/api/users/giveAccess')
        .send({ user_id: bob.user_id, product_id: once.product_id })
        .expect(201);
      const again = await as(admin)
        .post('/api/users/giveAccess')
        .send({ user_id: bob.user_id, product_id: once.product_id })
        .expect(409);
      expect(again.body.message).toBe("We're sorry, you cannot purchase this product anymore.");
      const bad = await as(admin)
        .post('/api/users/giveAccess')
        .send({ user_id: bob.user_id, product_id: p.product_id, payment_method_id: 99 })
        .expect(400);
      expect(bad.body.message).toBe('You have not selected a valid payment method.');
    });
  });

  describe('invoices', () => {
    it("creates pending invoices, saves with 'Cargo guardado.', counts paid ones in the lifetime value, hides others' invoices", async () => {
      const gina = await t.createUser({ name: 'Gina' });
      const created = await as(admin)
        .post('/api/invoices/admin')
        .send({ user_id: gina.user_id, amount: 4000, description: 'Consulting' })
        .expect(201);
      expect(created.body).toMatchObject({
        message: 'Cargo guardado.',
        invoice: { status: 'pending', amount: 4000 },
      });
      const id = created.body.invoice.invoice_id;
      expect(await value(gina.user_id)).toBe(0);
      const paid = await as(admin)
        .put('/api/invoices/admin')
        .send({ invoice_id: id, status: 'completed', payment_method_id: 4 })
        .expect(200);
      expect(paid.body).toMatchObject({ message: 'Cargo guardado.', invoice: { status: 'completed' } });
      expect(await value(gina.user_id)).toBe(40);
      const own = await as(gina).get('/api/invoices/').query({ query: 'consult' }).expect(200);
      expect(own.body.invoices.map((i: { invoice_id: number }) => i.invoice_id)).toEqual([id]);
      expect((await as(bob).get('/api/invoices/').expect(200)).body.invoices).toEqual([]);
      const staffList = await as(manager).get('/api/invoices/admin').query({ query: 'gina' }).expect(200);
      expect(staffList.body.invoices[0]).toMatchObject({ invoice_id: id, user: { name: 'Gina' } });
      await as(admin).put('/api/invoices/admin').send({ invoice_id: id, status: 'bogus' }).expect(400);
      await as(admin).put('/api/invoices/admin').send({ invoice_id: 999999, amount: 1 }).expect(404);
      await as(manager).post('/api/invoices/admin').send({ user_id: gina.user_id }).expect(403);
      await as(gina).get('/api/invoices/admin').expect(403);
      const events = await as(admin)
        .get('/api/audit-events')
        .query({ action: 'invoice.status_changed', target_user_id: gina.user_id })
        .expect(200);
      expect(events.body.audit_events[0].details).toMatchObject({ from: 'pending', to: 'completed' });
    });
  });
});
