import { Alert, Badge, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PageLoader, useFormat } from '@avatar-studio/shared';
import { priceLabel } from '@avatar-studio/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAvailableProducts, type Product } from './api';

/** What the plan costs, as the spec's label: cents / 100 with two decimals, 'USD / mo' for a monthly plan. */
export function priceText(product: Product, t: TFunction<'customer'>): string {
  const amount = priceLabel(product.sale_price ?? product.price);
  if (!product.is_subscription) return `${amount} ${t('billing.pricing.oneOff')}`;
  const count = product.subscription_interval ?? 1;
  const period = (product.subscription_period ?? 'month') as 'day' | 'month' | 'year';
  if (period === 'month' && count === 1) return `${amount} ${t('billing.pricing.perMonth')}`;
  return `${amount} ${t('billing.pricing.perPeriod', { count, period: t(`billing.period.${period}`) })}`;
}

/** The trial badge text: days, or the date the trial ends. */
export function trialText(product: Product, t: TFunction<'customer'>, date: (v: string) => string | null) {
  if (product.free_trial_end && new Date(product.free_trial_end).getTime() > Date.now())
    return t('billing.pricing.trialUntil', { date: date(product.free_trial_end) });
  if (product.free_trial_length) return t('billing.pricing.trialDays', { count: product.free_trial_length });
  return null;
}

/** Pricing: a card per plan the caller may buy, each leading to its checkout. */
export function PricingPage() {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const products = useAvailableProducts();
  if (products.isPending) return <PageLoader />;
  if (products.isError) return <Alert color="red">{t('billing.errors.purchaseDefault')}</Alert>;
  return (
    <Container size="lg" py="md">
      <Title order={1} mb="md">
        {t('billing.pricing.title')}
      </Title>
      {products.data.length === 0 ? (
        <Text c="dimmed">{t('billing.pricing.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {products.data.map((product) => {
            const trial = trialText(product, t, (v) => format.date(v));
            return (
              <Card
                key={product.product_id}
                withBorder
                padding="lg"
                component="article"
                aria-label={product.name}
              >
                <Stack gap="sm" h="100%">
                  <Group justify="space-between" align="flex-start">
                    <Title order={2} size="h3">
                      {product.name}
                    </Title>
                    {trial ? (
                      <Badge color="teal" autoContrast>
                        {trial}
                      </Badge>
                    ) : null}
                  </Group>
                  {product.short_description ? <Text size="sm">{product.short_description}</Text> : null}
                  <Text fw={700} size="xl">
                    {priceText(product, t)}
                  </Text>
                  <Text size="sm">
                    {product.word_amount === null
                      ? t('billing.pricing.unlimited')
                      : t('billing.pricing.words', { words: format.number(product.word_amount) })}
                  </Text>
                  <Button component={Link} to={`/checkout/${product.product_id}`} mt="auto">
                    {t('billing.pricing.choose')}
                  </Button>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </Container>
  );
}
