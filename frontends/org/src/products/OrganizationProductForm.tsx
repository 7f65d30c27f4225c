import {
  Anchor,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { notifySuccess, PageLoader, type CurrentOrganization } from '@avatar-studio/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Notice } from '../admin-panel/Notice';
import { numericId } from '../admin-panel/format';
import { ORG_NS } from '../i18n';
import { useOrganizationProduct, useSaveProduct, type Product, type ProductInput } from './api';
import { PRODUCTS, ProductsGate } from './Gate';

const PERIODS = ['day', 'month', 'year'] as const;
type Period = (typeof PERIODS)[number];

/** /organization/admin/products/{product_id}: create ("new") or change one of the organization's products. */
export function OrganizationProductForm() {
  const id = numericId(useParams().productId);
  return (
    <ProductsGate>
      {(organization) => (
        <Loader key={`${organization.organization_id}-${id}`} organization={organization} id={id} />
      )}
    </ProductsGate>
  );
}

function Loader({ organization, id }: { organization: CurrentOrganization; id: number | null }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'products.form' });
  const product = useOrganizationProduct(organization.organization_id, id);
  if (id !== null && product.isError) {
    return <Notice title={t('notFound')} body={t('notFound')} linkTo={PRODUCTS} linkLabel={t('back')} />;
  }
  if (id !== null && product.isPending) return <PageLoader />;
  return <ProductForm organizationId={organization.organization_id} product={product.data ?? null} />;
}

function ProductForm({ organizationId, product }: { organizationId: number; product: Product | null }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'products' });
  const navigate = useNavigate();
  const save = useSaveProduct(organizationId);
  const [name, setName] = useState(product?.name ?? '');
  const [shortDescription, setShortDescription] = useState(product?.short_description ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [price, setPrice] = useState<number | string>(product ? product.price / 100 : '');
  const [unlimited, setUnlimited] = useState(product ? product.word_amount === null : false);
  const [words, setWords] = useState<number | string>(product?.word_amount ?? '');
  const [subscription, setSubscription] = useState(product?.is_subscription ?? false);
  const [interval, setInterval] = useState<number | string>(product?.subscription_interval ?? 1);
  const [period, setPeriod] = useState<Period>((product?.subscription_period as Period | null) ?? 'month');
  const [available, setAvailable] = useState(product?.available ?? true);
  const [stripeProduct, setStripeProduct] = useState(product?.stripe_product_id ?? '');
  const [stripePrice, setStripePrice] = useState(product?.stripe_price_id ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: ProductInput = {
      name: name.trim(),
      short_description: shortDescription.trim() || null,
      description: description.trim(),
      // Dollars as typed, cents to the API.
      price: Math.round(Number(price) * 100),
      unlimited,
      word_amount: unlimited ? null : Number(words),
      is_subscription: subscription,
      subscription_interval: subscription ? Number(interval) : null,
      subscription_period: subscription ? period : null,
      available,
      stripe_product_id: stripeProduct.trim() || null,
      stripe_price_id: stripePrice.trim() || null,
    };
    save.mutate(
      { id: product?.product_id ?? null, input },
      {
        onSuccess: () => {
          notifySuccess(t('form.saved'));
          navigate(PRODUCTS);
        },
      },
    );
  };

  return (
    <Stack gap="lg" maw={640}>
      <Anchor component={Link} to={PRODUCTS} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('form.back')}
        </Group>
      </Anchor>
      <Title order={1} size="h2">
        {product ? t('form.editTitle') : t('form.createTitle')}
      </Title>
      <Paper withBorder p="lg">
        <form onSubmit={submit}>
          <Stack gap="sm">
            <TextInput
              label={t('form.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              required
              maxLength={200}
            />
            <TextInput
              label={t('form.shortDescription')}
              value={shortDescription}
              onChange={(e) => setShortDescription(e.currentTarget.value)}
              maxLength={500}
            />
            <Textarea
              label={t('form.description')}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              required
              autosize
              minRows={3}
              maxLength={10000}
            />
            <NumberInput
              label={t('form.price')}
              value={price}
              onChange={setPrice}
              min={0.01}
              decimalScale={2}
              fixedDecimalScale
              required
            />
            <Switch
              label={t('form.unlimited')}
              checked={unlimited}
              onChange={(e) => setUnlimited(e.currentTarget.checked)}
            />
            {unlimited ? null : (
              <NumberInput
                label={t('form.words')}
                value={words}
                onChange={setWords}
                min={1}
                allowDecimal={false}
                required
              />
            )}
            <Switch
              label={t('form.subscription')}
              checked={subscription}
              onChange={(e) => setSubscription(e.currentTarget.checked)}
            />
            {subscription ? (
              <Group grow>
                <NumberInput
                  label={t('form.interval')}
                  value={interval}
                  onChange={setInterval}
                  min={1}
                  allowDecimal={false}
                />
                <Select
                  label={t('form.period')}
                  value={period}
                  onChange={(value) => value && setPeriod(value as Period)}
                  data={PERIODS.map((value) => ({ value, label: t(`periods.${value}`) }))}
                  allowDeselect={false}
                />
              </Group>
            ) : null}
            <Switch
              label={t('form.available')}
              checked={available}
              onChange={(e) => setAvailable(e.currentTarget.checked)}
            />
            <TextInput
              label={t('form.stripeProduct')}
              value={stripeProduct}
              onChange={(e) => setStripeProduct(e.currentTarget.value)}
            />
            <TextInput
              label={t('form.stripePrice')}
              value={stripePrice}
              onChange={(e) => setStripePrice(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                {t('form.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
