import { api, notifyError, unwrap, useAppConfig, useOrganization, useSession } from '@avatar-studio/shared';
import { Anchor, Button, Group, Modal, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The modal opens this long after the signed-in frame first shows. */
export const WELCOME_MODAL_DELAY_MS = 1000;
/** Once shown (or dismissed) in this browser session, it waits for the next sign-in. */
const SHOWN_KEY = 'welcome_video_shown';

/** The organization's welcome video, else the app's intro video. */
function useWelcomeVideo(): string | null {
  const config = useAppConfig();
  const { current } = useOrganization();
  return current?.welcome_video || config.get('intro_video_url') || null;
}

/** An uploaded file plays here; any other address opens in a new tab. */
const isUploaded = (src: string) => src.startsWith('/api/files/content/');

/**
 * The welcome video about a second after sign-in, for a user whose show_video is on when there is a video.
 * Close hides it until the next sign-in; "Don't show again" turns show_video off for good.
 */
export function WelcomeVideoModal() {
  const { t } = useTranslation('shell', { keyPrefix: 'welcomeVideo' });
  const { user, setUser } = useSession();
  const video = useWelcomeVideo();
  const [opened, setOpened] = useState(false);
  const [saving, setSaving] = useState(false);
  const eligible =
    Boolean(user?.show_video && video) && sessionStorage.getItem(SHOWN_KEY) !== String(user?.user_id);

  useEffect(() => {
    if (!eligible) return;
    const timer = setTimeout(() => setOpened(true), WELCOME_MODAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [eligible]);

  const close = () => {
    if (user) sessionStorage.setItem(SHOWN_KEY, String(user.user_id));
    setOpened(false);
  };
  const never = async () => {
    setSaving(true);
    try {
      setUser((await unwrap(api.PUT('/api/users', { body: { show_video: false } }))).user);
      close();
    } catch (error) {
      notifyError(error);
    } finally {
      setSaving(false);
    }
  };

  if (!video) return null;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <Stack gap="md">
        {isUploaded(video) ? (
          <video src={video} controls style={{ width: '100%' }} aria-label={t('watch')} />
        ) : (
          <Anchor href={video} target="_blank" rel="noopener noreferrer">
            {t('watch')}
          </Anchor>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void never()} loading={saving}>
            {t('never')}
          </Button>
          <Button onClick={close}>{t('dismiss')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
