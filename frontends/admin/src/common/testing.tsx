/** What the admin screens' tests share: the shell's signed-in gate, staff users and a Select picker. */
import { useSession } from '@avatar-studio/shared';
import { testUser } from '@avatar-studio/shared/testing';
import { waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';

/** Like the shell: the remote's screen mounts once the session and its organization are settled. */
export function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}

export const staffAdmin = testUser({ staff: { staff_id: 1, role: 'admin' } });
export const staffManager = testUser({ user_id: 2, staff: { staff_id: 2, role: 'manager' } });

/** Opens a Mantine Select and picks an option of its own list (every Select keeps its options in the DOM). */
export async function pick(ui: ReturnType<typeof userEvent.setup>, input: HTMLElement, option: string) {
  await ui.click(input);
  await waitFor(() => expect(input).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  await ui.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}
