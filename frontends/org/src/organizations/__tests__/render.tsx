/** Test helpers of the org remote's screens: mount App as the shell does, with memberships as data. */
import { renderWithProviders, testUser, type RenderOptions } from '@avatar-studio/shared/testing';
import { notifications } from '@mantine/notifications';
import { act } from '@testing-library/react';
import { useSession, type Membership, type User } from '@avatar-studio/shared';
import { Route, Routes } from 'react-router-dom';
import App from '../../App';

/** Mantine's notification store is global: clear it so one test's alerts do not queue up the next test's. */
export function resetNotifications() {
  act(() => notifications.clean());
}

/** The shell renders remotes only for a signed-in user; so do the tests. */
function SignedInApp() {
  const { status } = useSession();
  return status === 'signedIn' ? <App /> : null;
}

export type Role = 'Admin' | 'Manager' | 'Member';
const ROLE_ID: Record<Role, 1 | 2 | 3> = { Admin: 1, Manager: 2, Member: 3 };

export function membership(
  organization_id: number,
  name: string,
  role: Role,
  extra: Partial<Membership> = {},
) {
  return {
    organization_id,
    name,
    slug: name.toLowerCase().replace(/\W+/g, '-'),
    tagline: `${name} tagline`,
    thumbnail: null,
    welcome_video: null,
    domain: null,
    user_type_id: ROLE_ID[role],
    user_type: { user_type_id: ROLE_ID[role], name: role },
    ...extra,
  } as Membership;
}

/** A signed-in user whose current organization is `current` (through default_organization). */
export function userIn(current: number | null, overrides: Partial<User> = {}): User {
  return testUser({ default_organization: current, ...overrides });
}

export const staff = (role: 'admin' | 'manager') => ({
  staff: { staff_id: 1, user_id: 1, role },
});

/** Renders the org remote under both shell mounts at `route`. */
export function renderOrg(route: string, options: Omit<RenderOptions, 'route'> = {}) {
  return renderWithProviders(
    <Routes>
      <Route path="/organizations/*" element={<SignedInApp />} />
      <Route path="/organization/*" element={<SignedInApp />} />
    </Routes>,
    { route, ...options },
  );
}
