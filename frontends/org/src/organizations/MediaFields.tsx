import {
  Box,
  Button,
  CloseButton,
  FileButton,
  FileInput,
  Group,
  Input,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPhotoUp, IconTrash, IconVideo } from '@tabler/icons-react';
import { notifyError } from '@avatar-studio/shared';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ORG_NS } from '../i18n';
import { uploadFile } from './api';
import { OrganizationThumbnail } from './OrganizationThumbnail';

/** Uploads a file (POST /api/files) and reports its src; errors go to the red alert. */
function useUpload(onUploaded: (src: string) => void) {
  const [uploading, setUploading] = useState(false);
  const upload = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      onUploaded(await uploadFile(file));
    } catch (error) {
      notifyError(error);
    } finally {
      setUploading(false);
    }
  };
  return { uploading, upload };
}

/** Thumbnail: an uploaded image (uploaded first, then the returned src is stored). */
export function ThumbnailField({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (src: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'organizations.settings' });
  const { uploading, upload } = useUpload(onChange);
  return (
    <Input.Wrapper label={t('thumbnail')}>
      <Group align="flex-start" gap="md" mt={4}>
        <Box w={160}>
          <OrganizationThumbnail src={value || null} alt={t('thumbnail')} height={100} />
        </Box>
        <Stack gap="xs">
          <FileButton
            onChange={(file) => void upload(file)}
            accept="image/*"
            disabled={disabled || uploading}
          >
            {(props) => (
              <Button
                {...props}
                variant="default"
                size="xs"
                loading={uploading}
                leftSection={<IconPhotoUp size={14} aria-hidden />}
              >
                {t('uploadImage')}
              </Button>
            )}
          </FileButton>
          {value && !disabled ? (
            <Button
              variant="subtle"
              color="red"
              size="xs"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => onChange('')}
            >
              {t('removeImage')}
            </Button>
          ) : null}
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}

const isUploadedSrc = (value: string) => value.startsWith('/api/files/');

/** Welcome video: an uploaded video/* file or a URL. */
export function WelcomeVideoField({
  value,
  onChange,
  disabled,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: ReactNode;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'organizations.settings' });
  const [source, setSource] = useState<'file' | 'url'>(value && !isUploadedSrc(value) ? 'url' : 'file');
  const { uploading, upload } = useUpload(onChange);
  const [fileName, setFileName] = useState<File | null>(null);

  return (
    <Input.Wrapper label={t('welcomeVideo')} error={error}>
      <Stack gap="xs" mt={4}>
        <SegmentedControl
          value={source}
          onChange={(next) => setSource(next as 'file' | 'url')}
          disabled={disabled}
          data={[
            { value: 'file', label: t('videoFromFile') },
            { value: 'url', label: t('videoFromUrl') },
          ]}
          w="fit-content"
        />
        {source === 'file' ? (
          <FileInput
            label={t('videoFile')}
            placeholder={t('videoFilePlaceholder')}
            accept="video/*"
            value={fileName}
            onChange={(file) => {
              setFileName(file);
              void upload(file);
            }}
            disabled={disabled || uploading}
            leftSection={<IconVideo size={16} aria-hidden />}
            description={uploading ? t('uploading') : undefined}
            clearable={false}
          />
        ) : (
          <TextInput
            label={t('videoUrl')}
            placeholder="https://"
            type="url"
            value={isUploadedSrc(value) ? '' : value}
            onChange={(event) => onChange(event.currentTarget.value)}
            disabled={disabled}
          />
        )}
        {value ? (
          <Group align="flex-start" gap="xs" wrap="nowrap">
            {isUploadedSrc(value) || /\.(mp4|webm|mov|ogg)(\?|$)/i.test(value) ? (
              <video src={value} controls preload="metadata" style={{ maxWidth: 320, borderRadius: 4 }}>
                <track kind="captions" />
              </video>
            ) : (
              <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {value}
              </Text>
            )}
            {!disabled ? (
              <CloseButton
                aria-label={t('removeVideo')}
                onClick={() => {
                  setFileName(null);
                  onChange('');
                }}
              />
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Input.Wrapper>
  );
}
