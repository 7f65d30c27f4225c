import '@mantine/dates/styles.css';
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  ApiError,
  NotFound,
  PageLoader,
  api,
  dateDisplayFormat,
  notifyError,
  notifySuccess,
  unwrap,
  useFormat,
} from '@avatar-studio/shared';
import { SUBSCRIPTION_PERIODS, type SubscriptionPeriod } from '@avatar-studio/contracts/billing';
import { numericId, toCents } from '../common/money';
import { PRODUCT_OPTIONS_QUERY_KEY } from '../purchases/PurchasesPage';
import { PRODUCTS_QUERY_KEY } from './ProductsPage';

type Num = number | string;

interface ProductForm {
  name: string;
  description: string;
  short_description: string;
  price: Num;
  sale_price: Num;
  unlimited: boolean;
  word_amount: Num;
  free_trial_words: Num;
  is_subscription: boolean;
  subscription_interval: Num;
  subscription_period: string | null;
  expiration_days: Num;
  limit_per_user: Num;
  user_limit: Num;
  free_trial_period: boolean;
  trial_by: 'days' | 'date';
  free_trial_length: Num;
  free_trial_end: string | null;
  available: boolean;
  stripe_product_id: string;
  stripe_price_id: string;
  paypal_product_id: string;
  paypal_plan_id: string;
  webhook_url: string;
  product_sku: string;
}

const EMPTY: ProductForm = {
  name: '',
  description: '',
  short_description: '',
  price: '',
  sale_price: '',
  unlimited: false,
  word_amount: '',
  free_trial_words: '',
  is_subscription: false,
  subscription_interval: '',
  subscription_period: null,
  expiration_days: '',
  limit_per_user: '',
  user_limit: '',
  free_trial_period: false,
  trial_by: 'days',
  free_trial_length: '',
  free_trial_end: null,
  available: true,
  stripe_product_id: '',
  stripe_price_id: '',
  paypal_product_id: '',
  paypal_plan_id: '',
  webhook_url: '',
  product_sku: '',
};

type StoredProduct = NonNullable<Awaited<ReturnType<typeof loadProduct>>>['product'];

function loadProduct(product_id: number) {
  return unwrap(api.GET('/api/products/{product_id}', { params: { path: { product_id } } }));
}

const blankIfNull = (value: number | string | null) => (value === null ? '' : value);

function toForm(p: StoredProduct): ProductForm {
  return {
    name: p.name,
    description: p.description,
    short_description: p.short_description ?? '',
    price: p.price / 100,
    sale_price: p.sale_price === null ? '' : p.sale_price / 100,
    // A null word_amount turns Unlimited on.
    unlimited: p.word_amount === null,
    word_amount: blankIfNull(p.word_amount),
    free_trial_words: blankIfNull(p.free_trial_words),
    is_subscription: p.is_subscription,
    subscription_interval: blankIfNull(p.subscription_interval),
    subscription_period: p.subscription_period,
    expiration_days: blankIfNull(p.expiration_days),
    limit_per_user: blankIfNull(p.limit_per_user),
    user_limit: blankIfNull(p.user_limit),
    free_trial_period: p.free_trial_period,
    trial_by: p.free_trial_end ? 'date' : 'days',
    free_trial_length: blankIfNull(p.free_trial_length),
    free_trial_end: p.free_trial_end ? dayjs(p.free_trial_end).format('YYYY-MM-DD') : null,
    available: p.available,
    stripe_product_id: p.stripe_product_id ?? '',
    stripe_price_id: p.stripe_price_id ?? '',
    paypal_product_id: p.paypal_product_id ?? '',
    paypal_plan_id: p.paypal_plan_id ?? '',
    webhook_url: p.webhook_url ?? '',
    product_sku: p.product_sku ?? '',
  };
}

const optionalNumber = (value: Num) => (value === '' ? null : Number(value));

/** What the API receives: cents for prices, null for empty optional fields; the server checks every rule. */
export function toBody(form: ProductForm) {
  return {
    name: form.name,
    description: form.description,
    short_description: form.short_description || null,
    price: form.price === '' ? 0 : toCents(form.price),
    sale_price: form.sale_price === '' ? null : toCents(form.sale_price),
    unlimited: form.unlimited,
    word_amount: form.unlimited ? null : optionalNumber(form.word_amount),
    free_trial_words: optionalNumber(form.free_trial_words),
    is_subscription: form.is_subscription,
    subscription_interval: optionalNumber(form.subscription_interval),
    subscription_period: form.subscription_period as SubscriptionPeriod | null,
    expiration_days: optionalNumber(form.expiration_days),
    limit_per_user: optionalNumber(form.limit_per_user),
    user_limit: optionalNumber(form.user_limit),
    free_trial_period: form.free_trial_period,
    free_trial_length:
      form.free_trial_period && form.trial_by === 'days' ? optionalNumber(form.free_trial_length) : null,
    free_trial_end:
      form.free_trial_period && form.trial_by === 'date' && form.free_trial_end ? form.free_trial_end : null,
    available: form.available,
    stripe_product_id: form.stripe_product_id || null,
    stripe_price_id: form.stripe_price_id || null,
    paypal_product_id: form.paypal_product_id || null,
    paypal_plan_id: form.paypal_plan_id || null,
    webhook_url: form.webhook_url || null,
    product_sku: form.product_sku || null,
  };
}

/** The sentences of a refused save: the rules the server lists, or the fields its validation names. */
function validationErrors(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const listed = (error.errors ?? []) as unknown[];
  const sentences = listed.map((e) =>
    typeof e === 'string' ? e : String((e as { message?: unknown }).message ?? ''),
  );
  return sentences.length ? sentences : [error.message];
}

/** /admin/products/{id}/edit: the product form; a non-numeric id creates a product. */
export function ProductFormPage() {
  const { product_id: raw } = useParams();
  const productId = numericId(raw);
  const existing = useQuery({
    queryKey: [...PRODUCTS_QUERY_KEY, 'one', productId],
    queryFn: () => loadProduct(productId!),
    enabled: productId !== null,
  });
  if (productId === null) return <ProductFormFields initial={EMPTY} productId={null} />;
  if (existing.isPending) return <PageLoader />;
  if (existing.isError) return <NotFound />;
  return <ProductFormFields key={productId} initial={toForm(existing.data.product)} productId={productId} />;
}

function ProductFormFields({ initial, productId }: { initial: ProductForm; productId: number | null }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ProductForm>(initial);
  const [errors, setErrors] = useState<string[] | null>(null);
  const set = <K extends keyof ProductForm>(key: K, value: ProductForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const save = useMutation({
    mutationFn: () => {
      const body = toBody(form);
      return productId === null
        ? unwrap(api.POST('/api/products', { body }))
        : unwrap(api.PUT('/api/products', { body: { ...body, product_id: productId } }));
    },
    onSuccess: async () => {
      setErrors(null);
      notifySuccess(t('products.form.saved'));
      await queryClient.invalidateQueries({ queryKey: PRODUCTS_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: PRODUCT_OPTIONS_QUERY_KEY });
      navigate('/admin/products');
    },
    onError: (error) => {
      const listed = validationErrors(error);
      if (listed) setErrors(listed);
      else notifyError(error);
    },
  });

  const numberField = (key: keyof ProductForm, label: string, extra: Record<string, unknown> = {}) => (
    <NumberInput
      label={label}
      value={form[key] as Num}
      onChange={(value) => set(key, value as never)}
      min={0}
      allowDecimal={false}
      thousandSeparator=","
      {...extra}
    />
  );
  const textField = (key: keyof ProductForm, label: string) => (
    <TextInput
      label={label}
      value={form[key] as string}
      onChange={(event) => set(key, event.currentTarget.value as never)}
    />
  );

  return (
    <Stack gap="md" p="md" maw={900}>
      <Anchor component={Link} to="/admin/products" size="sm">
        {t('products.form.back')}
      </Anchor>
      <Title order={1} size="h2">
        {productId === null ? t('products.form.newTitle') : t('products.form.editTitle')}
      </Title>
      {errors ? (
        <Alert color="red" title={t('products.form.validationErrors')} role="alert">
          <List size="sm">
            {errors.map((sentence) => (
              <List.Item key={sentence}>{sentence}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <Paper withBorder p="md" radius="md">
            <Stack>
              {textField('name', t('products.form.name'))}
              <Textarea
                label={t('products.form.description')}
                value={form.description}
                onChange={(event) => set('description', event.currentTarget.value)}
                autosize
                minRows={3}
              />
              {textField('short_description', t('products.form.shortDescription'))}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {numberField('price', t('products.form.price'), {
                  decimalScale: 2,
                  allowDecimal: true,
                  prefix: '$',
                })}
                {numberField('sale_price', t('products.form.salePrice'), {
                  decimalScale: 2,
                  allowDecimal: true,
                  prefix: '$',
                })}
              </SimpleGrid>
              <Switch
                label={t('products.form.unlimited')}
                checked={form.unlimited}
                // Switching Unlimited on clears the word amount.
                onChange={(event) => {
                  const unlimited = event.currentTarget.checked;
                  setForm((current) => ({
                    ...current,
                    unlimited,
                    word_amount: unlimited ? '' : current.word_amount,
                  }));
                }}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {form.unlimited ? null : numberField('word_amount', t('products.form.wordAmount'))}
                {numberField('free_trial_words', t('products.form.freeTrialWords'))}
                {numberField('expiration_days', t('products.form.expirationDays'))}
                {numberField('limit_per_user', t('products.form.limitPerUser'))}
                {numberField('user_limit', t('products.form.userLimit'))}
              </SimpleGrid>
            </Stack>
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Stack>
              <Switch
                label={t('products.form.isSubscription')}
                checked={form.is_subscription}
                // Turning a subscription on starts at every 1 month.
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  setForm((current) => ({
                    ...current,
                    is_subscription: on,
                    subscription_interval: on
                      ? current.subscription_interval || 1
                      : current.subscription_interval,
                    subscription_period: on
                      ? (current.subscription_period ?? 'month')
                      : current.subscription_period,
                  }));
                }}
              />
              {form.is_subscription ? (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  {numberField('subscription_interval', t('products.form.interval'), { min: 1 })}
                  <Select
                    label={t('products.form.period')}
                    data={SUBSCRIPTION_PERIODS.map((value) => ({
                      value,
                      label: t(`products.form.periods.${value}`),
                    }))}
                    value={form.subscription_period}
                    onChange={(value) => set('subscription_period', value)}
                  />
                </SimpleGrid>
              ) : null}
              <Switch
                label={t('products.form.freeTrial')}
                checked={form.free_trial_period}
                onChange={(event) => set('free_trial_period', event.currentTarget.checked)}
              />
              {form.free_trial_period ? (
                <Group align="flex-end">
                  <Stack gap={4}>
                    <Text size="sm" fw={500} id="trial-by">
                      {t('products.form.trialBy')}
                    </Text>
                    <SegmentedControl
                      aria-labelledby="trial-by"
                      value={form.trial_by}
                      onChange={(value) => set('trial_by', value as 'days' | 'date')}
                      data={[
                        { value: 'days', label: t('products.form.trialDays') },
                        { value: 'date', label: t('products.form.trialDate') },
                      ]}
                    />
                  </Stack>
                  {form.trial_by === 'days' ? (
                    numberField('free_trial_length', t('products.form.freeTrialLength'), { min: 1 })
                  ) : (
                    <DatePickerInput
                      label={t('products.form.freeTrialEnd')}
                      value={form.free_trial_end}
                      onChange={(value) => set('free_trial_end', value)}
                      valueFormat={dateDisplayFormat(format.language)}
                      clearable
                      miw={200}
                    />
                  )}
                </Group>
              ) : null}
            </Stack>
          </Paper>
          <Paper withBorder p="md" radius="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {textField('stripe_product_id', t('products.form.stripeProductId'))}
              {textField('stripe_price_id', t('products.form.stripePriceId'))}
              {textField('paypal_product_id', t('products.form.paypalProductId'))}
              {textField('paypal_plan_id', t('products.form.paypalPlanId'))}
              {textField('webhook_url', t('products.form.webhookUrl'))}
              {textField('product_sku', t('products.form.sku'))}
            </SimpleGrid>
          </Paper>
          <Switch
            label={t('products.form.available')}
            checked={form.available}
            onChange={(event) => set('available', event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('products.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
