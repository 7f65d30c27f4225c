import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { en, es } from '../i18n';
import type { Purchase } from './api';
import { purchase, SignedIn } from './testkit';
import { ThankYouPage } from './ThankYouPage';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 6000 });

describe('Order summary', () => {
  it('polls the purchase every 2 s until its status is final, then stops', async () => {
    let answered = 0;
    const { fetch } = renderWithProviders(
      <SignedIn>
        <Routes>
          <Route path="/thankyou/:purchase_id" element={<ThankYouPage />} />
        </Routes>
      </SignedIn>,
      {
        user: testUser(),
        route: '/thankyou/77',
        routes: {
          'GET /api/purchases/77': () => ({
            body: { purchase: purchase({ status: ++answered < 2 ? 'pending' : 'active', amount: 2500 }) },
          }),
        },
      },
    );
    expect(await screen.findByTestId('order-status')).toHaveTextContent('pending');
    expect(screen.getByText('We are confirming your payment…')).toBeInTheDocument();
    expect(screen.getByTestId('order-number')).toHaveTextContent('#77');
    expect(screen.getByText('25.00 USD')).toBeInTheDocument();
    expect(screen.getByText('Nov 25 2026')).toBeInTheDocument();
    const started = Date.now();
    await screen.findByText('active');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    await new Promise((r) => setTimeout(r, 2500));
    expect(fetch.callsTo('GET /api/purchases/77')).toHaveLength(2);
  }, 20_000);

  it("shows 'succeeded' as active", async () => {
    renderWithProviders(
      <SignedIn>
        <Routes>
          <Route path="/thankyou/:purchase_id" element={<ThankYouPage />} />
        </Routes>
      </SignedIn>,
      {
        user: testUser(),
        route: '/thankyou/78',
        routes: {
          'GET /api/purchases/78': {
            body: { purchase: purchase({ purchase_id: 78, status: 'succeeded' as Purchase['status'] }) },
          },
        },
      },
    );
    expect(await screen.findByTestId('order-status')).toHaveTextContent('active');
  });
});
