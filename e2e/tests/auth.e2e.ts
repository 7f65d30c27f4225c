import { apiCall, newUserData, signUpViaApi, uniqueEmail } from '../support/api';
import { label, signInViaApi, useBrowser, waitForSignedIn } from '../support/fixtures';

const { test } = useBrowser();

describe('signing up, in and recovering (000 §2, §8)', () => {
  test('a visitor who fills the whole sign-up form lands signed in on /', async ({ page }) => {
    const user = newUserData('signup');
    await page.goto('/signup');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();

    await page.getByLabel(label('Name')).fill(user.name);
    await page.getByLabel(label('Last name')).fill(user.last_name);
    await page.getByLabel(label('Email')).fill(user.email);
    await page.getByLabel(label('Password')).fill(user.password);
    await page.getByLabel(label('Confirm password')).fill(user.password);
    await page.getByLabel(label('Phone')).fill('(555) 123-4567');
    await page.getByRole('textbox', { name: 'How did you hear about us?' }).click();
    await page.getByRole('option', { name: 'Facebook Ad', exact: true }).click();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();

    await waitForSignedIn(page);
    expect(new URL(page.url()).pathname).toBe('/');
    // The account exists with what the form sent: its own tokens read it back.
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(token).toBeTruthy();
    const { user: saved } = await apiCall<{
      user: { email: string; name: string; last_name: string; phone: string; signup_reason: string };
    }>('GET', '/api/users', undefined, token!);
    expect(saved).toMatchObject({
      email: user.email,
      name: user.name,
      last_name: user.last_name,
      phone: '5551234567',
      signup_reason: 'Facebook Ad',
    });
  });

  test('a wrong password shows the spec’s login failure text', async ({ page }) => {
    const user = await signUpViaApi('wrongpass');
    await page.goto('/login');
    await page.getByLabel(label('Email')).fill(user.email);
    await page.getByLabel(label('Password')).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    await page
      .getByRole('alert')
      .filter({ hasText: 'Email or password is incorrect, please try again.' })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });

  test('recovery of an unknown email shows the spec’s not-found text', async ({ page }) => {
    await page.goto('/recovery');
    await page.getByLabel(label('Email')).fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Send reset link', exact: true }).click();

    await page
      .getByRole('alert')
      .filter({
        hasText:
          'We did not found any account with this email. Could your account be under a different email?',
      })
      .waitFor();
  });

  test('the language switch of the sign-in page shows it in Spanish', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.getByText('Español', { exact: true }).click();

    await page.getByRole('heading', { name: 'Bienvenido de nuevo' }).waitFor();
    await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('es');
  });

  test('choosing Español in the language chooser turns the signed-in app Spanish and keeps it', async ({
    page,
  }) => {
    const user = await signUpViaApi('lang');
    await signInViaApi(page, user, '/settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();

    await page.getByRole('button', { name: 'User menu', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Language', exact: true }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose your language' });
    await chooser.getByRole('button', { name: 'Español', exact: true }).click();
    await chooser.waitFor({ state: 'hidden' });

    await page.getByRole('heading', { name: 'Configuración', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Menú de usuario', exact: true }).waitFor();
    await page.getByLabel(label('Modo manual')).waitFor();

    // The language choice is stored on this device, so a reload keeps Spanish.
    await page.reload();
    await page.getByRole('heading', { name: 'Configuración', exact: true }).waitFor();
  });
});
