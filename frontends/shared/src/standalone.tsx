import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ComponentType, type FormEvent } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { ApiError, api, unwrap } from './api/client';
import { AppProviders } from './providers';
import { sessionKnown, useSession } from './session/SessionProvider';
import { PageLoader } from './ui/PageLoader';

/**
 * Development only: a minimal email/password form, so a remote served on its own port can get a session
 * (localStorage is per origin, so the shell's session does not carry over). Not translated on purpose.
 */
function DevSignIn({ name }: { name: string }) {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await unwrap(api.POST('/api/auth/login', { body: { email, password } }));
      if ('two_factor_required' in answer) {
        setError('This account uses two-factor sign-in: sign in through the shell instead.');
        return;
      }
      await signIn(answer);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <Center mih="100vh">
      <Paper withBorder p="xl" w={360} component="form" onSubmit={submit}>
        <Stack>
          <Title order={3}>{name} (standalone)</Title>
          <TextInput label="Email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} required />
          <PasswordInput
            label="Password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
          />
          {error ? (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          ) : null}
          <Button type="submit">Sign in</Button>
        </Stack>
      </Paper>
    </Center>
  );
}

function Gate({ name, App, mounts }: { name: string; App: ComponentType; mounts: string[] }) {
  const { status } = useSession();
  if (!sessionKnown(status)) return <PageLoader minHeight="100vh" />;
  if (status === 'signedOut') return <DevSignIn name={name} />;
  return (
    <Routes>
      {mounts.map((path) => (
        <Route key={path} path={path} element={<App />} />
      ))}
    </Routes>
  );
}

/** Mounts a remote's App on its own (npm run dev -w frontends/<name>) with every provider the shell gives it. */
export function StandaloneRemote({
  name,
  App,
  mounts,
}: {
  name: string;
  App: ComponentType;
  mounts: string[];
}) {
  return (
    <BrowserRouter>
      <AppProviders>
        <Gate name={name} App={App} mounts={mounts} />
      </AppProviders>
    </BrowserRouter>
  );
}
