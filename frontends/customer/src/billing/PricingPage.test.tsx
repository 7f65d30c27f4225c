import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, within } from '@testing-library/react';
import { en, es } from '../i18n';
import { PricingPage } from './PricingPage';
import { product, SignedIn } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

describe('Pricing', () => {
  it("shows a card per available plan: price as 'USD / mo', words or 'Unlimited words!', trial badge, checkout link", async () => {
    renderWithProviders(
      <SignedIn>
        <PricingPage />
      </SignedIn>,
      {
        user: testUser(),
        routes: {
          'GET /api/products/available': {
            body: {
              products: [
                product({
                  product_id: 5,
                  name: 'Pro',
                  price: 1200,
                  word_amount: 50000,
                  free_trial_length: 7,
                }),
                product({ product_id: 6, name: 'Unlimited', price: 4999, word_amount: null }),
                product({
                  product_id: 7,
                  name: 'Pack',
                  price: 500,
                  is_subscription: false,
                  word_amount: 2000,
                }),
              ],
              total: 3,
            },
          },
        },
      },
    );
    const pro = await screen.findByRole('article', { name: 'Pro' });
    expect(within(pro).getByText('12.00 USD / mo')).toBeInTheDocument();
    expect(within(pro).getByText('50,000 words')).toBeInTheDocument();
    expect(within(pro).getByText('7 days free')).toBeInTheDocument();
    expect(within(pro).getByRole('link', { name: 'Choose plan' })).toHaveAttribute('href', '/checkout/5');
    const unlimited = screen.getByRole('article', { name: 'Unlimited' });
    expect(within(unlimited).getByText('49.99 USD / mo')).toBeInTheDocument();
    expect(within(unlimited).getByText('Unlimited words!')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Pack' })).getByText('5.00 USD')).toBeInTheDocument();
  });

  it('says so when no plan is available', async () => {
    renderWithProviders(
      <SignedIn>
        <PricingPage />
      </SignedIn>,
      { user: testUser(), routes: { 'GET /api/products/available': { body: { products: [], total: 0 } } } },
    );
    expect(await screen.findByText('No plans are available right now.')).toBeInTheDocument();
  });
});
