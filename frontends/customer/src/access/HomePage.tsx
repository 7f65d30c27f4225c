import { useSession } from '@avatar-studio/shared';
import { Navigate } from 'react-router-dom';
import { OutOfCreditsNotice } from './OutOfCreditsNotice';

/** "/" for a signed-in user: users without access see the out-of-credits notice; the others their chats. */
export function HomePage() {
  const { user } = useSession();
  if (user && !user.has_access) return <OutOfCreditsNotice />;
  return <Navigate to="/conversations" replace />;
}
