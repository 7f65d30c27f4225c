import { currentLanguage, LANGUAGES, setLanguage } from '@avatar-studio/shared';
import { Button, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Language chooser: English or Español, stored on this device. */
export function LanguageModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('shell');
  const current = currentLanguage();
  return (
    <Modal opened={opened} onClose={onClose} title={t('layout.chooseLanguage')} centered size="xs">
      <Stack>
        {LANGUAGES.map(({ code, label }) => (
          <Button
            key={code}
            lang={code}
            variant={code === current ? 'filled' : 'default'}
            aria-pressed={code === current}
            data-autofocus={code === current ? true : undefined}
            onClick={() => {
              void setLanguage(code);
              onClose();
            }}
          >
            {label}
          </Button>
        ))}
      </Stack>
    </Modal>
  );
}
