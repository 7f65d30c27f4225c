import {
  FeatureSwitchedOff,
  navigateAway,
  PageLoader,
  RemoteErrorPanel,
  registerTranslations,
  sessionKnown,
  setSignedInHint,
  useAppConfig,
  useSession,
  switchedOffScreen,
} from '@avatar-studio/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { authPaths, isLoginPath, VERIFY_EMAIL_PATH } from './auth/paths';
import { en, es } from './i18n';
import {
  RemoteOutlet,
  RemotesProvider,
  useRemotesManifest,
  type RemoteSource,
} from './remotes/RemotesProvider';

registerTranslations('shell', { en, es });

// Signed-out and signed-in halves load on demand, so a visitor downloads only the half they need.
const Login = lazy(() => import('./auth/Login'));
const Signup = lazy(() => import('./auth/Signup'));
const Recovery = lazy(() => import('./auth/Recovery'));
const ResetPassword = lazy(() => import('./auth/ResetPassword'));
const VerifyEmail = lazy(() => import('./auth/VerifyEmail'));
const SignedInLayout = lazy(() =>
  import('./layout/SignedInLayout').then((m) => ({ default: m.SignedInLayout })),
);

/** When the page last reloaded to get the server's landing page (this tab); a second try so soon gives up. */
const LANDING_RELOAD_KEY = 'landing_reload_at';
const LANDING_RELOAD_GUARD_MS = 10_000;

/**
 * The landing pages are the server's (rendered from the app config, no app code): a signed-out visitor who
 * reaches one inside the app (sign-out, a stale signed-in hint) loads it from the server, once; if the server
 * answers the app again, the login page shows instead of reloading forever.
 */
function ServerLanding({ login }: { login: string }) {
  const { pathname, search } = useLocation();
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    setSignedInHint(false);
    const last = Number(sessionStorage.getItem(LANDING_RELOAD_KEY));
    if (Date.now() - last < LANDING_RELOAD_GUARD_MS) {
      setGaveUp(true);
      return;
    }
    sessionStorage.setItem(LANDING_RELOAD_KEY, String(Date.now()));
    navigateAway(pathname + search);
  }, [pathname, search]);
  return gaveUp ? <Navigate to={login} replace /> : <PageLoader minHeight="100vh" />;
}

/** /login (default), /signup, /recovery; under /auth when a landing page is enabled. */
function SignedOutRoutes() {
  const config = useAppConfig();
  const landing = config.feature('landing_enabled');
  const paths = authPaths(landing);
  const location = useLocation();
  const toLogin = <Navigate to={paths.login} replace state={{ from: location.pathname + location.search }} />;
  const signup = config.feature('signup_enabled') ? <Signup /> : <Navigate to={paths.login} replace />;
  return (
    <Suspense fallback={<PageLoader minHeight="100vh" />}>
      <Routes>
        <Route path="/auth/reset-password" element={<ResetPassword />} />
        <Route path={VERIFY_EMAIL_PATH} element={<VerifyEmail />} />
        <Route path={paths.login} element={<Login />} />
        <Route path={paths.signup} element={signup} />
        <Route path={paths.recovery} element={<Recovery />} />
        {landing ? <Route path="/" element={<ServerLanding login={paths.login} />} /> : null}
        {config.feature('spanish_enabled') ? (
          <Route path="/latam" element={<ServerLanding login={paths.login} />} />
        ) : null}
        {/* /auth, the other mode's paths and any deep link lead to the login page. */}
        <Route path="*" element={toLogin} />
      </Routes>
    </Suspense>
  );
}

function SignedInRoutes() {
  const { pathname, state } = useLocation();
  const { user } = useSession();
  // A staff admin who must turn on two-factor sign-in can use only Settings (where they enrol) until then.
  if (user?.two_factor_required && pathname !== '/settings' && pathname !== VERIFY_EMAIL_PATH) {
    return <Navigate to="/settings" replace />;
  }
  // A signed-in user who opens a login path is sent to / (or to the page they asked for before signing in).
  if (isLoginPath(pathname)) {
    const from = (state as { from?: string } | null)?.from;
    return <Navigate to={from && !isLoginPath(from.split('?')[0]) ? from : '/'} replace />;
  }
  return (
    <Suspense fallback={<PageLoader minHeight="100vh" />}>
      <Routes>
        <Route path={VERIFY_EMAIL_PATH} element={<VerifyEmail />} />
        <Route element={<SignedInLayout />}>
          <Route path="*" element={<MountedRemotes />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

/**
 * The route of every built remote at the mounts its manifest publishes; a remote's code loads when opened. A
 * screen of a switched-off feature says so instead (the feature flags declaration), whichever remote owns it.
 */
function MountedRemotes() {
  const { manifest, mounts, retryManifest } = useRemotesManifest();
  const { user } = useSession();
  const { pathname } = useLocation();
  const switchedOff = switchedOffScreen(pathname, useAppConfig());
  if (switchedOff) return <FeatureSwitchedOff feature={switchedOff} />;
  if (manifest.status === 'error') {
    return <RemoteErrorPanel name="remotes" error={manifest.error} onRetry={retryManifest} />;
  }
  if (manifest.status !== 'ready') return <PageLoader />;
  return (
    <Routes>
      {/* A staff-only remote's paths fall to the others' "not found" for everyone else: its code never loads. */}
      {mounts
        .filter((mount) => !mount.staffOnly || Boolean(user?.staff))
        .map(({ name, path }) => (
          <Route key={path} path={path} element={<RemoteOutlet key={name} name={name} />} />
        ))}
    </Routes>
  );
}

/** Everything under the providers: the signed-out screens or the signed-in frame with the remotes. */
export function ShellRoutes({ remotes }: { remotes: RemoteSource }) {
  const { status } = useSession();
  if (!sessionKnown(status)) return <PageLoader minHeight="100vh" />;
  return (
    <RemotesProvider key={status} source={remotes}>
      {status === 'signedOut' ? <SignedOutRoutes /> : <SignedInRoutes />}
    </RemotesProvider>
  );
}
