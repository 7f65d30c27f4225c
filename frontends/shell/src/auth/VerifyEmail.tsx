import { ApiError, api, unwrap, useSession } from '@avatar-studio/shared';
import { Alert, Anchor, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { useAuthPaths } from './paths';

type Outcome =
  { status: 'working' } | { status: 'done'; email: string } | { status: 'failed'; expired: boolean };

/**
 * /auth/verify-email?token=: the page the verification email links to, signed in or not. It verifies once on
 * opening and says so; a signed-in user's profile is re-read so Settings stops asking.
 */
export default function VerifyEmail() {
  const { t } = useTranslation('shell');
  const { status, reloadUser } = useSession();
  const paths = useAuthPaths();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { status: 'working' } : { status: 'failed', expired: false },
  );
  const sent = useRef(false);
  const signedIn = status === 'signedIn';

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    unwrap(api.POST('/api/auth/verify-email', { body: { token } }))
      .then(async (answer) => {
        setOutcome({ status: 'done', email: answer.email });
        if (signedIn) await reloadUser();
      })
      .catch((err: unknown) =>
        setOutcome({
          status: 'failed',
          expired: err instanceof ApiError && err.code === 'verification_link_expired',
        }),
      );
  }, [token, signedIn, reloadUser]);

  return (
    <AuthLayout title={t('auth.verify.title')}>
      <Stack>
        {outcome.status === 'working' ? (
          <Stack align="center" gap="xs" role="status" aria-label={t('auth.verify.working')}>
            <Loader size="sm" />
          </Stack>
        ) : null}
        {outcome.status === 'done' ? (
          <Alert color="green" variant="light" role="status">
            {t('auth.verify.done', { email: outcome.email })}
          </Alert>
        ) : null}
        {outcome.status === 'failed' ? (
          <Alert color="red" variant="light" role="alert">
            {outcome.expired ? t('auth.verify.expired') : t('auth.verify.invalid')}
          </Alert>
        ) : null}
        {outcome.status !== 'working' ? (
          <Anchor component={Link} to={signedIn ? '/settings' : paths.login}>
            {signedIn ? t('auth.verify.toSettings') : t('auth.verify.toLogin')}
          </Anchor>
        ) : null}
      </Stack>
    </AuthLayout>
  );
}
