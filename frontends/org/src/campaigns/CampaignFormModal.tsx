import { Button, Checkbox, FileInput, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { notifySuccess } from '@avatar-studio/shared';
import { MAX_CAMPAIGN_DESCRIPTION, MAX_CAMPAIGN_NAME } from '@avatar-studio/contracts/campaigns';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ORG_NS } from '../i18n';
import { useSaveCampaign, type Campaign } from './api';

/** Create (campaign null) or edit a campaign: name, description and a thumbnail image. */
export function CampaignFormModal({
  organizationId,
  campaign,
  opened,
  onClose,
}: {
  organizationId: number;
  campaign: Campaign | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns.form' });
  const [name, setName] = useState(campaign?.name ?? '');
  const [description, setDescription] = useState(campaign?.description ?? '');
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [removeThumbnail, setRemoveThumbnail] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const save = useSaveCampaign(organizationId, campaign?.campaign_id ?? null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t('nameRequired'));
      return;
    }
    save.mutate(
      { name: name.trim(), description, thumbnail, removeThumbnail },
      {
        onSuccess: () => {
          notifySuccess(t('saved'));
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={campaign ? t('editTitle') : t('createTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('name')}
            value={name}
            maxLength={MAX_CAMPAIGN_NAME}
            required
            error={nameError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
            data-autofocus
          />
          <Textarea
            label={t('description')}
            value={description}
            maxLength={MAX_CAMPAIGN_DESCRIPTION}
            autosize
            minRows={2}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <FileInput
            label={t('thumbnail')}
            accept="image/png,image/jpeg,image/webp,image/gif"
            value={thumbnail}
            onChange={setThumbnail}
            clearable
            leftSection={<IconPhotoUp size={16} aria-hidden />}
          />
          {campaign?.thumbnail ? (
            <Checkbox
              label={t('removeThumbnail')}
              checked={removeThumbnail}
              onChange={(event) => setRemoveThumbnail(event.currentTarget.checked)}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
