import type { Page } from 'playwright-core';
import { adminCredentials, apiCall, login, signUpViaApi } from '../support/api';
import { label, signInViaApi, until, useBrowser } from '../support/fixtures';
import { createDiscount, createProduct, routePayments } from '../support/payments';

const { test } = useBrowser();

const balance = async (token: string) =>
  (await apiCall<{ balance: { display_balance: number } }>('GET', '/api/words/balance', undefined, token))
    .balance.display_balance;

async function payWithCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByRole('button', { name: /^Pay .* USD$/ }).click();
}

describe('billing: pricing, checkout with Stripe.js, order summary, billing', () => {
  test('pricing -> checkout with a card -> the order summary shows active and the balance grew', async ({
    page,
  }) => {
    await routePayments(page);
    const name = `Starter ${Date.now().toString(36)}`;
    await createProduct({
      name,
      short_description: 'A month of writing',
      price: 1500,
      word_amount: 3000,
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
    });
    const user = await signUpViaApi('buyer');
    const before = await balance(user.session.access_token);
    await signInViaApi(page, user, '/');
    // The out-of-credits notice leads to the plans.
    await page.getByRole('link', { name: 'See plans' }).click();
    const card = page.getByRole('article', { name });
    await card.getByText('15.00 USD / mo').waitFor();
    await card.getByRole('link', { name: 'Choose plan' }).click();
    await page.getByRole('heading', { name: 'Order summary' }).waitFor();
    await payWithCard(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/thankyou\/\d+$/);
    await until(
      'the order to be active',
      async () => (await page.getByTestId('order-status').textContent()) === 'active',
    );
    await page.getByText('15.00 USD', { exact: true }).waitFor();
    expect(await balance(user.session.access_token)).toBe(before + 3000);
  }, 90_000);

  test('a card that asks for 3-D Secure is confirmed through Stripe.js', async ({ page }) => {
    await routePayments(page);
    const product_id = await createProduct({
      name: `Pack ${Date.now().toString(36)}`,
      price: 900,
      word_amount: 1000,
    });
    const user = await signUpViaApi('secure');
    await signInViaApi(page, user, `/checkout/${product_id}`);
    await payWithCard(page, '4000 0027 6000 3184');
    await page.waitForURL(/\/thankyou\/\d+$/);
    await until(
      'the order to be completed',
      async () => (await page.getByTestId('order-status').textContent()) === 'completed',
    );
  }, 90_000);

  test('a discount code lowers the total, and the charge', async ({ page }) => {
    await routePayments(page);
    const product_id = await createProduct({
      name: `Bundle ${Date.now().toString(36)}`,
      price: 2000,
      word_amount: 1000,
    });
    const code = `E2E${Date.now().toString(36).toUpperCase()}`;
    await createDiscount({ code, type: 'percent', amount: 25, product_id });
    const user = await signUpViaApi('discount');
    await signInViaApi(page, user, `/checkout/${product_id}`);
    const total = page.getByTestId('checkout-total');
    await until('the full price', async () => (await total.textContent()) === '20.00 USD');
    await page.getByLabel(label('Discount code')).fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await until('the discounted total', async () => (await total.textContent()) === '15.00 USD');
    await payWithCard(page, '4242424242424242');
    await page.waitForURL(/\/thankyou\/\d+$/);
    await page.getByText('15.00 USD', { exact: true }).waitFor();
  }, 90_000);

  test('cancel a subscription from billing with a reason', async ({ page }) => {
    await routePayments(page);
    const name = `Monthly ${Date.now().toString(36)}`;
    const product_id = await createProduct({
      name,
      price: 1000,
      word_amount: 1000,
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
    });
    const user = await signUpViaApi('cancel');
    const bought = await apiCall<{ purchase_id: number; status: string }>(
      'POST',
      '/api/checkout/attempt',
      { product_id, payment_method_id: 'pm_card_visa' },
      user.session.access_token,
    );
    expect(bought.status).toBe('active');
    await signInViaApi(page, user, '/billing');
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Why are you cancelling?').fill('Too short');
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await dialog.getByText('You must include a cancel reason.').waitFor();
    await dialog.getByLabel('Why are you cancelling?').fill('I do not need it this month');
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText('Your subscription was cancelled.').waitFor();
    await row.getByText('cancelled').waitFor();
    expect(await row.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    const { purchase } = await apiCall<{ purchase: { status: string; cancel_reason: string } }>(
      'GET',
      `/api/purchases/${bought.purchase_id}`,
      undefined,
      user.session.access_token,
    );
    expect(purchase).toMatchObject({ status: 'cancelled', cancel_reason: 'I do not need it this month' });
  }, 90_000);

  test('an invoice staff issued for a plan is paid through checkout: the invoice is paid and the words granted', async ({
    page,
  }) => {
    await routePayments(page);
    const product_id = await createProduct({
      name: `Contract ${Date.now().toString(36)}`,
      price: 1000,
      word_amount: 2500,
    });
    const user = await signUpViaApi('contract');
    const admin = await login(adminCredentials());
    const { invoice } = await apiCall<{ invoice: { invoice_id: number } }>(
      'POST',
      '/api/invoices/admin',
      { user_id: user.session.user.user_id, amount: 3200, description: 'Yearly agreement' },
      admin.access_token,
    );
    const before = await balance(user.session.access_token);
    await signInViaApi(page, user, `/checkout/${product_id}?contract_invoice_id=${invoice.invoice_id}`);
    await page.getByText(`Invoice #${invoice.invoice_id}`).waitFor();
    const total = page.getByTestId('checkout-total');
    await until('the invoice amount', async () => (await total.textContent()) === '32.00 USD');
    await payWithCard(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/thankyou\/\d+$/);
    await until(
      'the order to be completed',
      async () => (await page.getByTestId('order-status').textContent()) === 'completed',
    );
    const { invoices } = await apiCall<{ invoices: { invoice_id: number; status: string }[] }>(
      'GET',
      '/api/invoices',
      undefined,
      user.session.access_token,
    );
    expect(invoices.find((i) => i.invoice_id === invoice.invoice_id)?.status).toBe('completed');
    expect(await balance(user.session.access_token)).toBe(before + 2500);
  }, 90_000);

  test('save a card from billing, then pay an open invoice with it', async ({ page }) => {
    await routePayments(page);
    const user = await signUpViaApi('invoice');
    const admin = await login(adminCredentials());
    const { invoice } = await apiCall<{ invoice: { invoice_id: number } }>(
      'POST',
      '/api/invoices/admin',
      { user_id: user.session.user.user_id, amount: 4500, description: 'Onboarding session' },
      admin.access_token,
    );
    await signInViaApi(page, user, '/billing');
    await page.getByRole('button', { name: 'Add card' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Card number').fill('5555 5555 5555 4444');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('mastercard ending in 4444', { exact: false }).first().waitFor();
    await page.getByRole('tab', { name: 'Invoices' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Onboarding session' });
    await row.getByRole('button', { name: 'Pay' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'mastercard ending in 4444' }).check();
    await dialog.getByRole('button', { name: 'Pay 45.00 USD' }).click();
    await page.getByText('Invoice paid.').waitFor();
    const { invoices } = await apiCall<{ invoices: { invoice_id: number; status: string }[] }>(
      'GET',
      '/api/invoices',
      undefined,
      user.session.access_token,
    );
    expect(invoices.find((i) => i.invoice_id === invoice.invoice_id)?.status).toBe('completed');
  }, 90_000);

  test("PayPal's buttons buy a one-off product", async ({ page }) => {
    await routePayments(page);
    const product_id = await createProduct({
      name: `Wallet ${Date.now().toString(36)}`,
      price: 700,
      word_amount: 700,
    });
    const user = await signUpViaApi('paypal');
    await signInViaApi(page, user, `/checkout/${product_id}`);
    await page.getByRole('button', { name: 'PayPal' }).click();
    await page.waitForURL(/\/thankyou\/\d+$/);
    await until(
      'the order to be completed',
      async () => (await page.getByTestId('order-status').textContent()) === 'completed',
    );
  }, 90_000);
});
