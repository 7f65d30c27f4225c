import { Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCoinOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export interface OutOfCreditsNoticeProps {
  /**
   * 'pricing' (default) offers the plans at /pricing and a way back to /; 'home' only leads back to /
   * (for places where buying is not possible, e.g. inside a modal or for organization members).
   */
  variant?: 'pricing' | 'home';
}

/** Shown instead of a screen that needs paid access (has_access false, or a 412). */
export function OutOfCreditsNotice({ variant = 'pricing' }: OutOfCreditsNoticeProps) {
  const { t } = useTranslation('customer');
  return (
    <Center py="xl" px="md">
      <Paper
        withBorder
        radius="md"
        p="xl"
        maw={520}
        w="100%"
        role="region"
        aria-labelledby="out-of-credits-heading"
      >
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconCoinOff size={30} aria-hidden />
          </ThemeIcon>
          <Title order={2} id="out-of-credits-heading">
            {t('outOfCredits.heading')}
          </Title>
          <Text c="dimmed">{t('outOfCredits.subscription')}</Text>
          <Group justify="center" mt="sm">
            {variant === 'pricing' ? (
              <Button component={Link} to="/pricing">
                {t('outOfCredits.seePlans')}
              </Button>
            ) : null}
            <Button component={Link} to="/" variant={variant === 'pricing' ? 'default' : 'filled'}>
              {t('outOfCredits.backHome')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
