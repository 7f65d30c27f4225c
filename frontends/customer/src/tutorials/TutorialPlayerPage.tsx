import { Alert, Anchor, AspectRatio, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { PageLoader } from '@avatar-studio/shared';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { countPlay, isYouTubeId, useTutorial } from './api';

/**
 * /tutorials/{id}: the video, embedded from YouTube or played from its uploaded file. A play is counted when an
 * uploaded video starts, or when a YouTube tutorial is opened (its player does not tell the page).
 */
export function TutorialPlayerPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams().tutorial_id);
  const tutorial = useTutorial(id);
  const counted = useRef(false);
  const count = () => {
    if (counted.current) return;
    counted.current = true;
    void countPlay(id).catch(() => undefined);
  };
  const youtube = tutorial.data ? isYouTubeId(tutorial.data.src) : false;
  useEffect(() => {
    if (youtube) count();
    // Counted once per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [youtube]);

  if (tutorial.isPending && Number.isInteger(id) && id > 0) return <PageLoader />;
  const back = (
    <Anchor component={Link} to="/tutorials" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('tutorials.back')}
      </Group>
    </Anchor>
  );
  if (!tutorial.data)
    return (
      <Stack p="md">
        <Alert color="red">{t('tutorials.notFound')}</Alert>
        {back}
      </Stack>
    );
  const video = tutorial.data;
  return (
    <Stack p="md" gap="md" maw={1000}>
      {back}
      <Title order={1} size="h2">
        {video.name}
      </Title>
      <AspectRatio ratio={16 / 9}>
        {youtube ? (
          <iframe
            src={`https://www.youtube.com/embed/${video.src}`}
            title={video.name}
            allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
            allowFullScreen
            style={{ border: 0 }}
          />
        ) : (
          <video src={video.src} controls title={video.name} onPlay={count} aria-label={video.name} />
        )}
      </AspectRatio>
    </Stack>
  );
}
