import { notifications } from '@mantine/notifications';
import { registerTranslations, setNavigator, useSession } from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { en, es } from '../i18n';
import { ProfilePage as Page, phoneDigits } from './ProfilePage';

registerTranslations('customer', { en, es });
// The first render of a file loads Mantine and the providers: allow more than the default second.
configure({ asyncUtilTimeout: 5000 });

/** Like the shell: the remote's screen mounts once the session and its organization are settled. */
function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}
const ProfilePage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

afterEach(() => notifications.clean());

const ada = testUser({ company: 'Analytical Engines', birthday: '1815-12-10', phone: '5512345678' });

describe('My Profile', () => {
  it('shows the profile with the email read-only', async () => {
    renderWithProviders(<ProfilePage />, { user: ada });
    expect(await screen.findByLabelText(/^Name/)).toHaveValue('Ada');
    expect(screen.getByLabelText(/^Last name/)).toHaveValue('Lovelace');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Company')).toHaveValue('Analytical Engines');
    expect(screen.getByLabelText('Phone')).toHaveValue('5512345678');
    expect(screen.getByLabelText('Birthday')).toHaveValue('1815-12-10');
  });

  it('saves the profile with PUT /api/users, the phone as 10 digits', async () => {
    const { fetch } = renderWithProviders(<ProfilePage />, {
      user: ada,
      routes: { 'PUT /api/users': { body: { user: { ...ada, company: 'Babbage & Co' } } } },
    });
    const ui = userEvent.setup();
    const company = await screen.findByLabelText('Company');
    await ui.clear(company);
    await ui.type(company, 'Babbage & Co');
    const phone = screen.getByLabelText('Phone');
    await ui.clear(phone);
    await ui.type(phone, '+52 (55) 9876-5432 99');
    expect(phone).toHaveValue('5255987654');
    await ui.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Profile saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users')[0].body).toEqual({
      name: 'Ada',
      last_name: 'Lovelace',
      company: 'Babbage & Co',
      phone: '5255987654',
      birthday: '1815-12-10',
    });
  });

  it('refuses an empty name with the spec message', async () => {
    const { fetch } = renderWithProviders(<ProfilePage />, { user: ada });
    const ui = userEvent.setup();
    await ui.clear(await screen.findByLabelText(/^Name/));
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is invalid.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users')).toHaveLength(0);
  });

  it('uploads a profile image as multipart field "file" and saves its src as user.file', async () => {
    const { fetch } = renderWithProviders(<ProfilePage />, {
      user: ada,
      routes: {
        'POST /api/files': {
          status: 201,
          body: {
            file: {
              file_id: 7,
              src: '/api/files/content/abc.png',
              name: 'me.png',
              type: 'image/png',
              size: 4,
            },
          },
        },
        'PUT /api/users': { body: { user: { ...ada, file: '/api/files/content/abc.png' } } },
      },
    });
    const ui = userEvent.setup();
    await screen.findByRole('button', { name: 'Change image' });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await ui.upload(input, new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' }));

    expect(await screen.findByText('Profile image updated.')).toBeInTheDocument();
    const upload = fetch.callsTo('POST /api/files')[0];
    expect(upload.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(String(upload.body)).toContain('name="file"; filename="me.png"');
    expect(upload.headers.get('authorization')).toBe('Bearer test-access');
    expect(fetch.callsTo('PUT /api/users')[0].body).toEqual({ file: '/api/files/content/abc.png' });
    await waitFor(() =>
      expect(screen.getByAltText('Profile image')).toHaveAttribute('src', '/api/files/content/abc.png'),
    );
  });

  it('signs out: ends the server session, clears storage and leaves', async () => {
    const navigate = jest.fn();
    const { fetch } = renderWithProviders(<ProfilePage />, { user: ada });
    setNavigator(navigate);
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(fetch.callsTo('POST /api/auth/logout')[0].body).toEqual({ refresh_token: 'test-refresh' });
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('shapes phones to at most 10 digits', () => {
    expect(phoneDigits('(55) 1234-5678')).toBe('5512345678');
    expect(phoneDigits('+1 555 123 4567 8')).toBe('1555123456');
  });
});
