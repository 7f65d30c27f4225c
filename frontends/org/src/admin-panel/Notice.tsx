import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A full-page explanation instead of a screen (no access, nothing chosen, not found), with a way on. */
export function Notice({
  title,
  body,
  linkTo,
  linkLabel,
  icon = <IconLock size={32} aria-hidden />,
}: {
  title: string;
  body: string;
  linkTo?: string;
  linkLabel?: string;
  icon?: ReactNode;
}) {
  return (
    <Paper withBorder p="xl" maw={560} mx="auto" mt="xl" role="status">
      <Stack align="center" gap="sm" ta="center">
        {icon}
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text c="dimmed">{body}</Text>
        {linkTo && linkLabel ? (
          <Button component={Link} to={linkTo} variant="light">
            {linkLabel}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
