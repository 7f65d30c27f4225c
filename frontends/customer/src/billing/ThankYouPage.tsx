import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { PageLoader, useFormat } from '@avatar-studio/shared';
import { priceLabel, purchaseBadge } from '@avatar-studio/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { usePolledPurchase } from './api';

export const STATUS_COLORS: Record<string, string> = {
  active: 'green',
  completed: 'green',
  pending: 'yellow',
  processing: 'yellow',
  failed: 'red',
  cancelled: 'gray',
  revoked: 'red',
};

/** The order summary after paying: polls the purchase every 2 s until its status is final. */
export function ThankYouPage() {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const id = Number(useParams().purchase_id);
  const purchase = usePolledPurchase(id);
  if (purchase.isPending && purchase.fetchStatus !== 'idle') return <PageLoader />;
  if (!purchase.data) return <Alert color="red">{t('billing.thankyou.notFound')}</Alert>;
  const p = purchase.data;
  const badge = purchaseBadge(p.status);
  const waiting = p.status === 'pending' || p.status === 'processing';
  return (
    <Container size="sm" py="xl">
      <Paper withBorder p="xl">
        <Stack>
          <Title order={1}>{t('billing.thankyou.title')}</Title>
          {p.product ? <Text fw={500}>{p.product.name}</Text> : null}
          <SimpleGrid cols={2}>
            <Text c="dimmed">{t('billing.thankyou.order')}</Text>
            <Text data-testid="order-number">#{p.purchase_id}</Text>
            <Text c="dimmed">{t('billing.thankyou.date')}</Text>
            <Text>{format.date(p.createdAt)}</Text>
            <Text c="dimmed">{t('billing.thankyou.total')}</Text>
            <Text>{priceLabel(p.amount)} USD</Text>
            <Text c="dimmed">{t('billing.thankyou.status')}</Text>
            <Group>
              <Badge color={STATUS_COLORS[badge] ?? 'gray'} autoContrast data-testid="order-status">
                {badge}
              </Badge>
            </Group>
          </SimpleGrid>
          {waiting ? (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm">{t('billing.thankyou.waiting')}</Text>
            </Group>
          ) : null}
          <Button component={Link} to="/" variant="light">
            {t('billing.thankyou.continue')}
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
