import { registerTranslations, setLanguage } from '@avatar-studio/shared';
import { expectPageExists, renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import { en, es } from '../i18n';
import { OutOfCreditsNotice } from './OutOfCreditsNotice';
import App from '../App';

registerTranslations('customer', { en, es });
// The first render of a file loads Mantine and the providers: allow more than the default second.
configure({ asyncUtilTimeout: 5000 });

afterEach(async () => {
  await setLanguage('en');
});

describe('OutOfCreditsNotice', () => {
  it('shows the heading, the subscription notice, a link to /pricing and one back to /', async () => {
    renderWithProviders(<OutOfCreditsNotice />, { user: testUser({ has_access: false }) });
    expect(await screen.findByRole('heading', { name: "Oops! You're out of credits." })).toBeInTheDocument();
    expect(
      screen.getByText('Creating more content with the product requires an active subscription.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await expectPageExists(App, '/pricing');
    await expectPageExists(App, '/');
  });

  it('has a variant that only leads back to /', async () => {
    renderWithProviders(<OutOfCreditsNotice variant="home" />, { user: testUser({ has_access: false }) });
    expect(await screen.findByRole('heading', { name: "Oops! You're out of credits." })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'See plans' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  it('speaks Spanish', async () => {
    await setLanguage('es');
    renderWithProviders(<OutOfCreditsNotice />, { user: testUser({ has_access: false }) });
    expect(
      await screen.findByRole('heading', { name: '¡Ups! Te quedaste sin créditos.' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver planes' })).toHaveAttribute('href', '/pricing');
  });
});
