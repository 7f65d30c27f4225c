import { currentLanguage, setLanguage, useAppConfig, type Language } from '@avatar-studio/shared';
import { Center, Image, Paper, SegmentedControl, Stack, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/** The frame of the signed-out screens: brand, a language switch, and the form card. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const config = useAppConfig();
  const [language, setLang] = useState<Language>(currentLanguage());
  const logo = config.get('landing_logo_src');
  const appName = config.get('app_name') ?? config.get('title') ?? '';
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack w="100%" maw={420} gap="lg">
        <Stack align="center" gap="xs">
          {logo ? <Image src={logo} alt={appName} h={48} w="auto" fit="contain" /> : null}
          {!logo && appName ? (
            <Title order={2} ta="center">
              {appName}
            </Title>
          ) : null}
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Title order={1} size="h3" mb="md">
            {title}
          </Title>
          {children}
        </Paper>
        <Center>
          <SegmentedControl
            size="xs"
            value={language}
            aria-label="Language / Idioma"
            onChange={(value) => {
              setLang(value as Language);
              void setLanguage(value as Language);
            }}
            data={[
              { value: 'en', label: 'English' },
              { value: 'es', label: 'Español' },
            ]}
          />
        </Center>
      </Stack>
    </Center>
  );
}
