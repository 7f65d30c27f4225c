import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconExternalLink,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUsers,
} from '@tabler/icons-react';
import {
  notifyError,
  notifySuccess,
  PageLoader,
  useCan,
  useDebouncedValue,
  type CurrentOrganization,
} from '@avatar-studio/shared';
import type { CampaignResourceList } from '@avatar-studio/contracts/campaigns';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { Notice } from '../admin-panel/Notice';
import { ORG_NS } from '../i18n';
import {
  useCampaign,
  useCampaignResourceChanges,
  useCampaignResources,
  useResourceCandidates,
  type CampaignResourceItem,
} from './api';
import { CAMPAIGNS, RequireOrganization } from './Gate';

/** Where a campaign's document or template opens. */
export function resourceLink(item: CampaignResourceItem): string {
  return item.type === 'document'
    ? `/campaign/${item.campaign_id}/documents/${item.resource_id}`
    : `/templates/edit-template/${item.resource_id}`;
}

const typeOf = (list: CampaignResourceList) => (list === 'documents' ? 'document' : 'template');

/** /organization/campaigns/{id}: the campaign's documents or templates. */
export function CampaignDetail() {
  const id = Number(useParams().campaignId);
  return (
    <RequireOrganization>
      {(organization) => (
        <Detail key={`${organization.organization_id}-${id}`} organization={organization} id={id} />
      )}
    </RequireOrganization>
  );
}

function Detail({ organization, id }: { organization: CurrentOrganization; id: number }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns.detail' });
  const canManage = useCan('campaigns.manage');
  const [list, setList] = useState<CampaignResourceList>('documents');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [adding, setAdding] = useState(false);
  const campaign = useCampaign(organization.organization_id, id);
  const resources = useCampaignResources(organization.organization_id, id, list, query);
  const { remove } = useCampaignResourceChanges(organization.organization_id, id);

  useEffect(() => {
    if (resources.error) notifyError(resources.error);
  }, [resources.error]);

  if (!Number.isInteger(id) || id < 1 || campaign.isError) {
    return <Notice title={t('notFound')} body={t('notFound')} linkTo={CAMPAIGNS} linkLabel={t('back')} />;
  }
  if (campaign.isPending) return <PageLoader />;

  const items = resources.data ?? [];
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={CAMPAIGNS} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            {campaign.data.name}
          </Title>
          {campaign.data.description ? <Text c="dimmed">{campaign.data.description}</Text> : null}
        </div>
        {canManage ? (
          <Group>
            <Button
              component={Link}
              to={`${CAMPAIGNS}/${id}/users`}
              variant="default"
              leftSection={<IconUsers size={16} aria-hidden />}
            >
              {t('users')}
            </Button>
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
              {t('add')}
            </Button>
          </Group>
        ) : null}
      </Group>
      <Group align="flex-end" wrap="wrap" gap="md">
        <SegmentedControl
          aria-label={t('kind')}
          value={list}
          onChange={(value) => setList(value as CampaignResourceList)}
          data={[
            { value: 'documents', label: t('documents') },
            { value: 'templates', label: t('templates') },
          ]}
        />
        <TextInput
          aria-label={t('search')}
          placeholder={t('search')}
          type="search"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          miw={240}
        />
      </Group>
      {resources.isPending ? (
        <PageLoader />
      ) : items.length === 0 ? (
        <Alert variant="light" color="gray">
          {t('empty')}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {items.map((item) => {
            const name = item.document?.name ?? item.template?.name ?? '';
            return (
              <Card
                key={`${item.type}-${item.resource_id}`}
                withBorder
                padding="md"
                component="article"
                aria-label={name}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600} lineClamp={2}>
                    {name}
                  </Text>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      component={Link}
                      to={resourceLink(item)}
                      variant="subtle"
                      aria-label={t('openItem', { name })}
                    >
                      <IconExternalLink size={18} aria-hidden />
                    </ActionIcon>
                    {canManage ? (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('deleteItem', { name })}
                        loading={remove.isPending && remove.variables?.resource_id === item.resource_id}
                        onClick={() =>
                          remove.mutate(
                            { resource_id: item.resource_id, type: item.type },
                            { onSuccess: () => notifySuccess(t('removed')) },
                          )
                        }
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    ) : null}
                  </Group>
                </Group>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      {adding ? (
        <AddResourceModal
          organizationId={organization.organization_id}
          campaignId={id}
          list={list}
          present={new Set(items.map((item) => item.resource_id))}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </Stack>
  );
}

/** The caller's documents (or the organization's templates) not yet in the campaign, each with an Add button. */
function AddResourceModal({
  organizationId,
  campaignId,
  list,
  present,
  onClose,
}: {
  organizationId: number;
  campaignId: number;
  list: CampaignResourceList;
  present: Set<number>;
  onClose: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns.detail' });
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const candidates = useResourceCandidates(organizationId, list, query);
  const { add } = useCampaignResourceChanges(organizationId, campaignId);
  const rows = (candidates.data ?? []).filter((c) => !present.has(c.id));
  return (
    <Modal opened onClose={onClose} title={t('addTitle')}>
      <Stack gap="sm">
        <TextInput
          aria-label={t('addSearch')}
          placeholder={t('addSearch')}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-autofocus
        />
        {candidates.isPending ? (
          <PageLoader />
        ) : rows.length === 0 ? (
          <Text c="dimmed">{t('addNone')}</Text>
        ) : (
          rows.map((row) => (
            <Group key={row.id} justify="space-between" wrap="nowrap">
              <Text>{row.name}</Text>
              <Button
                size="xs"
                variant="light"
                aria-label={t('addOne', { name: row.name })}
                loading={add.isPending && add.variables?.resource_id === row.id}
                onClick={() =>
                  add.mutate(
                    { resource_id: row.id, type: typeOf(list) },
                    { onSuccess: () => notifySuccess(t('added')) },
                  )
                }
              >
                {t('add')}
              </Button>
            </Group>
          ))
        )}
      </Stack>
    </Modal>
  );
}
