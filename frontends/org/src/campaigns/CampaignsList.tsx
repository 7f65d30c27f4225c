import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Center,
  Group,
  Image,
  Menu,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconDots,
  IconEdit,
  IconPhoto,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUsersPlus,
} from '@tabler/icons-react';
import {
  ConfirmModal,
  notifyError,
  notifySuccess,
  PageLoader,
  useCan,
  useDebouncedValue,
  type CurrentOrganization,
} from '@avatar-studio/shared';
import { CAMPAIGN_SORTS, type CampaignSort } from '@avatar-studio/contracts/campaigns';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { fullName } from '../admin-panel/AdminPanel';
import { ORG_NS } from '../i18n';
import { useCampaigns, useDeleteCampaign, type Campaign } from './api';
import { CampaignFormModal } from './CampaignFormModal';
import { CAMPAIGNS, RequireOrganization } from './Gate';

/** /organization/campaigns: the campaigns the caller sees in the current organization. */
export function CampaignsList() {
  return (
    <RequireOrganization>
      {(organization) => <Campaigns key={organization.organization_id} organization={organization} />}
    </RequireOrganization>
  );
}

function Campaigns({ organization }: { organization: CurrentOrganization }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns' });
  const canManage = useCan('campaigns.manage');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [sortBy, setSortBy] = useState<CampaignSort>('createdAt_desc');
  const [editing, setEditing] = useState<Campaign | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Campaign | null>(null);
  const campaigns = useCampaigns(organization.organization_id, query, sortBy);
  const remove = useDeleteCampaign(organization.organization_id);

  useEffect(() => {
    if (campaigns.error) notifyError(campaigns.error);
  }, [campaigns.error]);

  const rows = campaigns.data?.campaigns ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            {t('title')}
          </Title>
          <Text c="dimmed" size="sm">
            {organization.name}
          </Text>
        </div>
        {canManage ? (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('create')}
          </Button>
        ) : null}
      </Group>
      <Group align="flex-end" wrap="wrap" gap="md">
        <TextInput
          label={t('search')}
          placeholder={t('search')}
          type="search"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          miw={260}
        />
        <Select
          label={t('sort')}
          data={CAMPAIGN_SORTS.map((value) => ({ value, label: t(`sorts.${value}`) }))}
          value={sortBy}
          onChange={(value) => value && setSortBy(value as CampaignSort)}
          allowDeselect={false}
          w={200}
        />
      </Group>
      {campaigns.isPending ? (
        <PageLoader />
      ) : rows.length === 0 ? (
        campaigns.isError ? null : (
          <Alert variant="light" color="gray">
            {t('empty')}
          </Alert>
        )
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          {rows.map((campaign) => (
            <CampaignCard
              key={campaign.campaign_id}
              campaign={campaign}
              canManage={canManage}
              onEdit={() => setEditing(campaign)}
              onDelete={() => setDeleting(campaign)}
            />
          ))}
        </SimpleGrid>
      )}
      {editing ? (
        <CampaignFormModal
          organizationId={organization.organization_id}
          campaign={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmModal
        opened={deleting !== null}
        title={t('remove.title')}
        body={t('remove.body', { name: deleting?.name ?? '' })}
        cancelLabel={t('remove.cancel')}
        confirmLabel={t('remove.confirm')}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.campaign_id, {
            onSuccess: () => {
              notifySuccess(t('remove.done'));
              setDeleting(null);
            },
          })
        }
      />
    </Stack>
  );
}

function CampaignCard({
  campaign,
  canManage,
  onEdit,
  onDelete,
}: {
  campaign: Campaign;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns' });
  const link = `${CAMPAIGNS}/${campaign.campaign_id}`;
  return (
    <Card withBorder padding="md" radius="md" component="article" aria-label={campaign.name}>
      <Card.Section>
        {campaign.thumbnail ? (
          <Image
            src={campaign.thumbnail}
            alt={t('thumbnailOf', { name: campaign.name })}
            h={140}
            fit="cover"
          />
        ) : (
          <Center h={140} bg="var(--mantine-color-gray-light)" role="img" aria-label={t('noThumbnail')}>
            <IconPhoto size={40} aria-hidden />
          </Center>
        )}
      </Card.Section>
      <Group justify="space-between" mt="md" wrap="nowrap" align="flex-start">
        <div>
          <Title order={2} size="h4">
            {campaign.name}
          </Title>
          {campaign.user ? (
            <Text size="sm" c="dimmed">
              {t('owner', { name: fullName(campaign.user) })}
            </Text>
          ) : null}
        </div>
        {canManage ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={t('menu', { name: campaign.name })}>
                <IconDots size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconEdit size={16} aria-hidden />} onClick={onEdit}>
                {t('edit')}
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={onDelete}>
                {t('delete')}
              </Menu.Item>
              <Menu.Item
                component={Link}
                to={`${link}/users`}
                leftSection={<IconUsersPlus size={16} aria-hidden />}
              >
                {t('addUsers')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>
      <Button
        component={Link}
        to={link}
        variant="light"
        mt="md"
        fullWidth
        aria-label={`${t('open')} ${campaign.name}`}
      >
        {t('open')}
      </Button>
    </Card>
  );
}
