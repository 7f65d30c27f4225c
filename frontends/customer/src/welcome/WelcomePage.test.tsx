import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { en, es } from '../i18n';
import { WelcomePage } from './WelcomePage';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

const plan = (product_id: number, name: string, price: number, word_amount: number | null) => ({
  product_id,
  name,
  price,
  sale_price: null,
  word_amount,
  short_description: `${name} for you`,
});

// The page renders before the session and scope settle and again after: each check runs on the settled page.
describe('WelcomePage', () => {
  it('walks a user without access through the product and the plans, with the way to /pricing', async () => {
    renderWithProviders(<WelcomePage />, {
      user: testUser({ has_access: false }),
      routes: {
        'GET /api/products/available': {
          body: { products: [plan(1, 'Starter', 1999, 20000), plan(2, 'Pro', 4900, null)] },
        },
      },
    });
    await waitFor(() => {
      expect(screen.getByRole('heading', { name: 'Welcome to Avatar Studio' })).toBeInTheDocument();
      expect(screen.getByText(/Chain templates into workflows/)).toBeInTheDocument();
      const starter = screen.getByRole('article', { name: 'Starter' });
      expect(within(starter).getByText('19.99 USD / mo')).toBeInTheDocument();
      expect(within(starter).getByText('20,000 words')).toBeInTheDocument();
      expect(within(starter).getByRole('link', { name: 'Choose Starter' })).toHaveAttribute(
        'href',
        '/checkout/1',
      );
      expect(
        within(screen.getByRole('article', { name: 'Pro' })).getByText('Unlimited words!'),
      ).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/pricing');
      expect(screen.queryByRole('link', { name: 'Start a conversation' })).not.toBeInTheDocument();
    });
  });

  it('says when no plan is on sale, and offers to start to a user with access', async () => {
    renderWithProviders(<WelcomePage />, {
      user: testUser({ has_access: true }),
      routes: { 'GET /api/products/available': { body: { products: [] } } },
    });
    await waitFor(() => {
      expect(screen.getByText('No plans are on sale right now.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Start a conversation' })).toHaveAttribute(
        'href',
        '/conversations',
      );
    });
  });
});
