import {
  AspectRatio,
  Badge,
  Button,
  Card,
  Center,
  Image,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPlayerPlay, IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useTutorials, type Tutorial } from './api';

/** The thumbnail shown for a tutorial: its uploaded image (other sites' images are outside the page's policy). */
const thumbnailOf = (tutorial: Tutorial): string | null => tutorial.thumbnail;

/** /tutorials: the tutorials of the user's language in order, each with its thumbnail and Play. */
export function TutorialsPage() {
  const { t, i18n } = useTranslation('customer');
  const language = i18n.language?.startsWith('es') ? 'es' : 'en';
  const list = useTutorials(language);
  return (
    <Stack p="md" gap="md">
      <Title order={1} size="h2">
        {t('tutorials.title')}
      </Title>
      {list.isPending ? (
        <Loader aria-label={t('tutorials.title')} />
      ) : !list.data?.tutorials.length ? (
        <Text c="dimmed">{t('tutorials.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {list.data.tutorials.map((tutorial, index) => {
            const image = thumbnailOf(tutorial);
            return (
              <Card key={tutorial.tutorial_id} withBorder component="article" aria-label={tutorial.name}>
                <Card.Section>
                  <AspectRatio ratio={16 / 9}>
                    {image ? (
                      <Image src={image} alt="" />
                    ) : (
                      <Center bg="gray.1">
                        <IconVideo size={48} aria-hidden />
                      </Center>
                    )}
                  </AspectRatio>
                </Card.Section>
                <Stack gap="xs" mt="sm">
                  <Badge variant="light" mr="auto">
                    {index + 1}
                  </Badge>
                  <Text fw={600}>{tutorial.name}</Text>
                  <Button
                    component={Link}
                    to={`/tutorials/${tutorial.tutorial_id}`}
                    leftSection={<IconPlayerPlay size={16} aria-hidden />}
                    aria-label={t('tutorials.playOne', { name: tutorial.name })}
                    mr="auto"
                  >
                    {t('tutorials.play')}
                  </Button>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
