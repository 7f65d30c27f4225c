import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import { ApiError, PageLoader, formatDate, notifySuccess, useSession } from '@avatar-studio/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ORG_NS } from '../i18n';
import { useAnswerInvitation, useMyInvitations, type MyInvitation } from './api';

/**
 * /organizations/invitations: the signed-in person's pending invitations to accept or decline. Opened from the
 * invitation email (`?token=`), it first offers to accept that one; the token leaves the address bar at once.
 */
export function Invitations() {
  const { t, i18n } = useTranslation(ORG_NS, { keyPrefix: 'invitations' });
  const session = useSession();
  const [params, setParams] = useSearchParams();
  // Read once: the token is dropped from the URL so it is not kept in history or shared by copying the address.
  const [token, setToken] = useState(() => params.get('token'));
  const [tokenError, setTokenError] = useState<string | null>(null);
  const invitations = useMyInvitations();
  const answer = useAnswerInvitation((given) => {
    notifySuccess(given.kind === 'decline' ? t('declined') : t('accepted'));
    if (given.kind === 'token') setToken(null);
  });

  useEffect(() => {
    if (!params.has('token')) return;
    const next = new URLSearchParams(params);
    next.delete('token');
    setParams(next, { replace: true });
  }, [params, setParams]);

  const acceptToken = () => {
    if (!token) return;
    setTokenError(null);
    answer.mutate(
      { kind: 'token', token },
      {
        onError: (error) => {
          if (error instanceof ApiError && (error.status === 404 || error.status === 410)) {
            setTokenError(
              error.status === 410 ? t('expired') : t('notForYou', { email: session.user?.email }),
            );
            setToken(null);
          }
        },
      },
    );
  };

  const pending = invitations.data ?? [];
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      {token ? (
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Group gap="xs">
              <IconMailOpened size={20} aria-hidden />
              <Text fw={600}>{t('fromEmail')}</Text>
            </Group>
            <Text size="sm" c="dimmed">
              {t('fromEmailHint', { email: session.user?.email })}
            </Text>
            <Group>
              <Button onClick={acceptToken} loading={answer.isPending && answer.variables?.kind === 'token'}>
                {t('accept')}
              </Button>
              <Button variant="default" onClick={() => setToken(null)}>
                {t('notNow')}
              </Button>
            </Group>
          </Stack>
        </Card>
      ) : null}
      {tokenError ? (
        <Alert color="red" role="alert">
          {tokenError}
        </Alert>
      ) : null}
      {invitations.isPending ? (
        <PageLoader />
      ) : invitations.isError ? (
        <Alert color="red">{invitations.error.message}</Alert>
      ) : pending.length === 0 ? (
        <Text c="dimmed">{t('empty')}</Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {pending.map((invitation) => (
            <InvitationCard
              key={invitation.invitation_id}
              invitation={invitation}
              language={i18n.language}
              busy={answer.isPending}
              onAccept={() => answer.mutate({ kind: 'accept', id: invitation.invitation_id })}
              onDecline={() => answer.mutate({ kind: 'decline', id: invitation.invitation_id })}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function InvitationCard({
  invitation,
  language,
  busy,
  onAccept,
  onDecline,
}: {
  invitation: MyInvitation;
  language: string;
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'invitations' });
  const role = t(`roles.${invitation.role}`);
  return (
    <Card component="li" withBorder padding="md" radius="md" aria-label={invitation.organization_name}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Group gap="xs">
            <Text fw={600}>{invitation.organization_name}</Text>
            <Badge variant="light">{role}</Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {invitation.invited_by ? t('invitedBy', { name: invitation.invited_by }) : t('invitedBySomeone')}{' '}
            · {t('expires', { date: formatDate(invitation.expires_at, language) })}
          </Text>
        </div>
        <Group gap="xs">
          <Button
            size="sm"
            onClick={onAccept}
            disabled={busy}
            aria-label={t('acceptOf', { name: invitation.organization_name })}
          >
            {t('accept')}
          </Button>
          <Button
            size="sm"
            variant="default"
            onClick={onDecline}
            disabled={busy}
            aria-label={t('declineOf', { name: invitation.organization_name })}
          >
            {t('decline')}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
