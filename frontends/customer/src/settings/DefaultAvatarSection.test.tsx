import { notifications } from '@mantine/notifications';
import { registerTranslations, setLanguage, useSession } from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { en, es } from '../i18n';
import { SettingsPage as Page } from './SettingsPage';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}
const SettingsPage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

afterEach(async () => {
  notifications.clean();
  await setLanguage('en');
});

describe('Settings: the default avatar (Super Fetch assistant)', () => {
  it("resets it after a confirmation, says 'Super Fetcch reset.' and shows the new one", async () => {
    const fresh = { id: 'asst_00000000000000000000000f', avatar_id: 12 };
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: testUser({ defaultAssistant: null }),
      routes: {
        'POST /api/users/resetDefaultAvatar': { body: { user: testUser({ defaultAssistant: fresh }) } },
      },
    });
    const ui = userEvent.setup();
    expect(
      await screen.findByText('Made the first time you use Super Fetch or reset it.'),
    ).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Reset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset your Super Fetch assistant?' });
    expect(fetch.callsTo('POST /api/users/resetDefaultAvatar')).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Super Fetcch reset.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/users/resetDefaultAvatar')).toHaveLength(1);
    expect(await screen.findByText(`Assistant ${fresh.id}`)).toBeInTheDocument();
  });

  it('cancels without a call, and is absent while Super Fetch is off', async () => {
    const { fetch, unmount } = renderWithProviders(<SettingsPage />, {
      user: testUser({ defaultAssistant: { id: 'asst_00000000000000000000000a', avatar_id: 3 } }),
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('Assistant asst_00000000000000000000000a')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Reset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset your Super Fetch assistant?' });
    await ui.click(within(dialog).getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    expect(fetch.callsTo('POST /api/users/resetDefaultAvatar')).toHaveLength(0);
    unmount();

    renderWithProviders(<SettingsPage />, { user: testUser(), config: { super_fetch: 'false' } });
    expect(await screen.findByLabelText('Integration webhook URL')).toBeInTheDocument();
    expect(screen.queryByText('Super Fetch assistant')).not.toBeInTheDocument();
  });
});
