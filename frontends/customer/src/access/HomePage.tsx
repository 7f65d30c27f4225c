import { useSession } from '@avatar-studio/shared';
import { Navigate } from 'react-router-dom';
import { OutOfCreditsNotice } from './OutOfCreditsNotice';

/**
 * "/" for a signed-in user. 000 §6: users without access see the out-of-credits notice there. The chats list
 * that will be home for everyone else is not built yet, so they go to their profile rather than an empty page.
 */
export function HomePage() {
  const { user } = useSession();
  if (user && !user.has_access) return <OutOfCreditsNotice />;
  return <Navigate to="/profile" replace />;
}
