import { Anchor, Button, Group, Modal, ScrollArea, Stack, Stepper, Text } from '@mantine/core';
import { IconArrowLeft, IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TemplateApplyForm } from '../templates/TemplateApplyForm';
import { TemplateList } from '../templates/TemplatePanel';
import type { Template } from '../templates/model';
import type { AvatarRequest } from './api';
import { AvatarPicker } from './AvatarPicker';

/**
 * The two-step generate modal of a document: first a template (chosen and filled in), then the avatar that
 * writes it. Generate hands both over and closes; the page then streams the answer in edit view.
 */
export function GenerateModal({
  opened,
  busy,
  onClose,
  onGenerate,
}: {
  opened: boolean;
  busy: boolean;
  onClose: () => void;
  onGenerate: (request: Omit<AvatarRequest, 'selection'>) => void;
}) {
  const { t } = useTranslation('customer');
  const [template, setTemplate] = useState<Template | null>(null);
  const [values, setValues] = useState<Record<string, string> | null>(null);
  const [avatarId, setAvatarId] = useState<number | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const step = values === null ? 0 : 1;

  const close = () => {
    setTemplate(null);
    setValues(null);
    setAvatarId(null);
    setAvatarError(null);
    onClose();
  };

  const generate = () => {
    if (!template || !values) return;
    if (avatarId === null) {
      setAvatarError(t('documents.avatars.required'));
      return;
    }
    onGenerate({ template_id: template.template_id, values, avatar_id: avatarId });
    close();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('documents.generate.title')} size="lg">
      <Stack gap="md">
        <Stepper active={step} size="sm">
          <Stepper.Step label={t('documents.generate.templateStep')} />
          <Stepper.Step label={t('documents.generate.avatarStep')} />
        </Stepper>
        {step === 0 &&
          (template ? (
            <ScrollArea.Autosize mah="60vh">
              <Stack gap="sm">
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  mr="auto"
                  onClick={() => setTemplate(null)}
                >
                  <Group gap={4} component="span">
                    <IconArrowLeft size={14} aria-hidden />
                    {t('templates.panel.back')}
                  </Group>
                </Anchor>
                <Text fw={600}>{template.name}</Text>
                <TemplateApplyForm
                  key={template.template_id}
                  template={template}
                  generating={false}
                  submitLabel={t('documents.generate.next')}
                  onGenerate={setValues}
                />
              </Stack>
            </ScrollArea.Autosize>
          ) : (
            <ScrollArea.Autosize mah="60vh">
              <TemplateList onChoose={setTemplate} />
            </ScrollArea.Autosize>
          ))}
        {step === 1 && template && (
          <Stack gap="sm">
            <Text size="sm">{t('documents.generate.withTemplate', { name: template.name })}</Text>
            <AvatarPicker
              value={avatarId}
              error={avatarError}
              onChange={(id) => {
                setAvatarId(id);
                if (id !== null) setAvatarError(null);
              }}
            />
            <Group justify="space-between">
              <Button variant="default" onClick={() => setValues(null)}>
                {t('documents.generate.back')}
              </Button>
              <Button loading={busy} leftSection={<IconSparkles size={16} aria-hidden />} onClick={generate}>
                {t('documents.tools.generate')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
