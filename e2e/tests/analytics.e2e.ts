import { adminCredentials, apiCall, login, signUpViaApi } from '../support/api';
import { expectAccessible } from '../support/axe';
import { signInViaApi, until, useBrowser } from '../support/fixtures';

const { test } = useBrowser();

interface Income {
  total_income: number;
  total_payments: number;
  payment_methods: {
    payment_method_id: number | null;
    name: string | null;
    payments: number;
    total: number;
  }[];
}

const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('analytics (000 Analytics: income, activity)', () => {
  test("the income screen's totals, table and donut match the purchases made, and it is accessible", async ({
    page,
  }) => {
    const admin = adminCredentials();
    const { access_token } = await login(admin);
    const before = await apiCall<Income>('GET', '/api/analytics/income', undefined, access_token);
    const { product } = await apiCall<{ product: { product_id: number } }>(
      'POST',
      '/api/products',
      { name: `Income e2e ${Date.now().toString(36)}`, description: 'Words', price: 1000, word_amount: 5000 },
      access_token,
    );
    // Two purchases paid in cash and one by transfer, given by staff (paid, not gifts).
    const paid = [
      { total: 123456, payment_method_id: 3 },
      { total: 20000, payment_method_id: 3 },
      { total: 50050, payment_method_id: 4 },
    ];
    for (const { total, payment_method_id } of paid) {
      const customer = await signUpViaApi('income');
      await apiCall(
        'POST',
        '/api/users/giveAccess',
        {
          user_id: customer.session.user.user_id,
          product_id: product.product_id,
          gift: false,
          total,
          payment_method_id,
        },
        access_token,
      );
    }
    const after = await apiCall<Income>('GET', '/api/analytics/income', undefined, access_token);
    expect(after.total_income - before.total_income).toBe(123456 + 20000 + 50050);
    expect(after.total_payments - before.total_payments).toBe(3);
    const cash = (income: Income) => income.payment_methods.find((m) => m.name === 'cash')?.total ?? 0;
    expect(cash(after) - cash(before)).toBe(143456);

    await signInViaApi(page, admin, '/admin/analytics/income');
    await page.getByRole('heading', { name: 'Income', exact: true }).waitFor();
    await until(
      'the total income',
      async () => (await page.getByTestId('total-income').textContent()) === usd(after.total_income),
    );
    expect(await page.getByTestId('total-payments').textContent()).toBe(
      after.total_payments.toLocaleString('en-US'),
    );
    const table = page.getByRole('table', { name: 'Payment methods' });
    const cashRow = table.getByRole('row').filter({ hasText: 'Cash' });
    expect(await cashRow.getByRole('cell').last().textContent()).toBe(usd(cash(after)));
    // One donut slice per payment method that took money, its label in the centre the total.
    const donut = page.getByRole('figure', { name: 'Income by payment method' });
    await donut.locator('.recharts-pie-sector').first().waitFor();
    expect(await donut.locator('.recharts-pie-sector').count()).toBe(
      after.payment_methods.filter((m) => m.total > 0).length,
    );
    expect(await donut.getByText(usd(after.total_income), { exact: true }).count()).toBeGreaterThan(0);
    await expectAccessible(page, 'analytics income');
  });

  test('the activity screen shows the four sections, the plays chart counts a play, and it is accessible', async ({
    page,
  }) => {
    const admin = adminCredentials();
    const { access_token } = await login(admin);
    const name = `Plays e2e ${Date.now().toString(36)}`;
    const { tutorial } = await apiCall<{ tutorial: { tutorial_id: number } }>(
      'POST',
      '/api/tutorials',
      { name, src: 'dQw4w9WgXcQ', language: 'en' },
      access_token,
    );
    const viewer = await signUpViaApi('plays');
    await apiCall(
      'POST',
      `/api/tutorials/${tutorial.tutorial_id}/plays`,
      undefined,
      viewer.session.access_token,
    );

    await signInViaApi(page, admin, '/admin/analytics/activity');
    await page.getByRole('heading', { name: 'Activity', exact: true }).waitFor();
    for (const section of ['Free trials', 'Avatars', 'Expected income', 'Tutorial plays'])
      await page.getByRole('heading', { name: section, exact: true }).waitFor();
    await page.getByTestId('trials-started').waitFor();
    const plays = page
      .getByRole('table', { name: 'Tutorial plays' })
      .getByRole('row')
      .filter({ hasText: name });
    expect(await plays.getByRole('cell').nth(2).textContent()).toBe('1');
    const chart = page.getByRole('figure', { name: 'Plays per tutorial' });
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    await expectAccessible(page, 'analytics activity');
  });
});
