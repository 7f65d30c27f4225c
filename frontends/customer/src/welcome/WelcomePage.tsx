import { Alert, Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import {
  api,
  formatMoney,
  formatNumber,
  PageLoader,
  unwrap,
  useAppConfig,
  useSession,
} from '@avatar-studio/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** What the caller may buy in their scope (GET /api/products/available). */
function useAvailablePlans() {
  return useQuery({
    queryKey: ['products', 'available'],
    queryFn: async () => (await unwrap(api.GET('/api/products/available'))).products,
  });
}

const STEPS = ['avatars', 'templates', 'documents', 'workflows'] as const;

/** /welcome: what the product does and its plans, with the way to /pricing (for users without access). */
export function WelcomePage() {
  const { t } = useTranslation('customer', { keyPrefix: 'welcome' });
  const config = useAppConfig();
  const { user } = useSession();
  const plans = useAvailablePlans();
  const app = config.get('app_name') ?? config.get('title') ?? '';

  return (
    <Stack gap="xl" maw={960} mx="auto" py="lg">
      <Stack gap="xs">
        <Title order={1}>{t('title', { app })}</Title>
        <Text size="lg" c="dimmed">
          {t('intro')}
        </Text>
      </Stack>
      <section aria-labelledby="welcome-steps">
        <Title order={2} size="h3" id="welcome-steps" mb="sm">
          {t('steps.title')}
        </Title>
        <List
          spacing="sm"
          icon={
            <ThemeIcon size={22} radius="xl" variant="light" aria-hidden>
              <IconCheck size={14} aria-hidden />
            </ThemeIcon>
          }
        >
          {STEPS.map((step) => (
            <List.Item key={step}>{t(`steps.${step}`)}</List.Item>
          ))}
        </List>
      </section>
      <section aria-labelledby="welcome-plans">
        <Title order={2} size="h3" id="welcome-plans" mb="sm">
          {t('plans.title')}
        </Title>
        {plans.isPending ? (
          <PageLoader />
        ) : !plans.data || plans.data.length === 0 ? (
          <Alert variant="light" color="gray">
            {t('plans.none')}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
            {plans.data.map((plan) => (
              <Card key={plan.product_id} withBorder padding="lg" component="article" aria-label={plan.name}>
                <Stack gap="xs">
                  <Title order={3} size="h4">
                    {plan.name}
                  </Title>
                  {plan.short_description ? <Text c="dimmed">{plan.short_description}</Text> : null}
                  <Text fw={700} size="xl">
                    {formatMoney((plan.sale_price ?? plan.price) / 100)} {t('plans.perMonth')}
                  </Text>
                  <Text>
                    {plan.word_amount === null
                      ? t('plans.unlimited')
                      : t('plans.words', { words: formatNumber(plan.word_amount) })}
                  </Text>
                  <Button
                    component={Link}
                    to={`/checkout/${plan.product_id}`}
                    aria-label={t('plans.choose', { name: plan.name })}
                  >
                    {t('plans.choose', { name: plan.name })}
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </section>
      {user?.has_access ? <Text>{t('hasAccess')}</Text> : null}
      <Group>
        <Button component={Link} to="/pricing" variant={user?.has_access ? 'default' : 'filled'}>
          {t('seePricing')}
        </Button>
        {user?.has_access ? (
          <Button component={Link} to="/conversations">
            {t('start')}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
