import { testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderShell } from './render-shell';

configure({ asyncUtilTimeout: 5000 });

afterEach(() => sessionStorage.clear());

const VIDEO = { intro_video_url: 'https://videos.example.com/welcome' };

describe('welcome video modal', () => {
  it('opens about a second after sign-in, and "Don\'t show again" turns show_video off', async () => {
    const user = userEvent.setup();
    const { fetch } = renderShell('/', {
      user: testUser({ show_video: true }),
      config: VIDEO,
      routes: { 'PUT /api/users': { body: { user: testUser({ show_video: false }) } } },
    });
    await screen.findByText('customer home');
    expect(screen.queryByRole('dialog', { name: 'Welcome!' })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Welcome!' });
    expect(within(dialog).getByRole('link', { name: 'Watch the welcome video' })).toHaveAttribute(
      'href',
      VIDEO.intro_video_url,
    );
    await user.click(within(dialog).getByRole('button', { name: "Don't show again" }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Welcome!' })).not.toBeInTheDocument());
    expect(fetch.callsTo('PUT /api/users')[0].body).toEqual({ show_video: false });
  });

  it('shows once per sign-in when dismissed', async () => {
    const user = userEvent.setup();
    const options = { user: testUser({ show_video: true }), config: VIDEO };
    const first = renderShell('/', options);
    const dialog = await screen.findByRole('dialog', { name: 'Welcome!' });
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    first.unmount();
    renderShell('/', options);
    await screen.findByText('customer home');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(screen.queryByRole('dialog', { name: 'Welcome!' })).not.toBeInTheDocument();
    expect(first.fetch.callsTo('PUT /api/users')).toHaveLength(0);
  });

  it('stays away without show_video, or without a video', async () => {
    renderShell('/', { user: testUser({ show_video: false }), config: VIDEO });
    await screen.findByText('customer home');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
