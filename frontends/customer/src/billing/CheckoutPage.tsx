import {
  Alert,
  Button,
  Container,
  Divider,
  Grid,
  Group,
  Paper,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ApiError, PageLoader, notifySuccess } from '@avatar-studio/shared';
import { NEW_CARD_SOURCE, priceLabel } from '@avatar-studio/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  checkoutAttempt,
  checkoutCapture,
  paypalCaptureOrder,
  paypalCaptureSubscription,
  paypalCreateOrder,
  paypalCreateSubscription,
  useCheckoutKeys,
  useDiscountQuote,
  useInvoices,
  usePaymentSources,
  useProduct,
  type DiscountQuote,
  type Invoice,
  type Product,
} from './api';
import { discountErrorText, purchaseErrorText } from './errors';
import { PayPalButtons } from './paypal';
import { priceText } from './PricingPage';
import { CardField, StripeProvider, useCard } from './stripe';

/**
 * Checkout of one plan: order summary, discount code, saved cards or a new card (Stripe Elements), PayPal. With
 * `?contract_invoice_id=` it pays an invoice staff issued for the plan: the invoice's amount, no discount, by card.
 */
export function CheckoutPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams().product_id);
  const contractId = Number(useSearchParams()[0].get('contract_invoice_id')) || null;
  const product = useProduct(id);
  const keys = useCheckoutKeys(id);
  const invoices = useInvoices(contractId !== null);
  const [discount, setDiscount] = useState<DiscountQuote | null>(null);
  if (product.isPending || keys.isPending || (contractId !== null && invoices.isPending))
    return <PageLoader />;
  const contract =
    contractId === null
      ? null
      : (invoices.data?.invoices.find(
          (i) => i.invoice_id === contractId && (i.status === 'pending' || i.status === 'failed'),
        ) ?? null);
  if (!product.data || !keys.data || (contractId !== null && !contract))
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title={t('billing.checkout.title')}>
          {product.error instanceof ApiError && product.error.status === 404
            ? t('billing.checkout.notFound')
            : product.error || keys.error
              ? purchaseErrorText(product.error ?? keys.error, t)
              : t('billing.checkout.contractNotOpen')}
        </Alert>
        <Button component={Link} to={contractId !== null ? '/billing' : '/pricing'} variant="subtle" mt="md">
          {t('billing.checkout.back')}
        </Button>
      </Container>
    );
  return (
    <Container size="lg" py="md">
      <Title order={1} mb="md">
        {t('billing.checkout.title')}
      </Title>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <OrderSummary
            product={product.data}
            contract={contract}
            discount={discount}
            onDiscount={setDiscount}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="lg">
            <Stack>
              <StripeProvider publishableKey={keys.data.stripe_publishable_key}>
                <CardPayment product={product.data} contract={contract} discount={discount} />
              </StripeProvider>
              {keys.data.paypal_client_id && !contract ? (
                <PayPalPayment
                  product={product.data}
                  discount={discount}
                  clientId={keys.data.paypal_client_id}
                />
              ) : null}
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
    </Container>
  );
}

function OrderSummary({
  product,
  contract,
  discount,
  onDiscount,
}: {
  product: Product;
  contract: Invoice | null;
  discount: DiscountQuote | null;
  onDiscount: (quote: DiscountQuote | null) => void;
}) {
  const { t } = useTranslation('customer');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const quote = useDiscountQuote();
  const price = product.sale_price ?? product.price;
  const apply = () => {
    setError(null);
    quote.mutate(
      { code: code.trim(), product_id: product.product_id },
      {
        onSuccess: (q) => {
          onDiscount(q);
          notifySuccess(t('billing.checkout.discountApplied'));
        },
        onError: (e) => {
          onDiscount(null);
          setError(discountErrorText(e, t));
        },
      },
    );
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="order-summary">
      <Stack gap="sm">
        <Title order={2} size="h4" id="order-summary">
          {t('billing.checkout.summary')}
        </Title>
        <Text fw={600}>{product.name}</Text>
        {product.short_description ? <Text size="sm">{product.short_description}</Text> : null}
        <Group justify="space-between">
          <Text>
            {contract
              ? t('billing.checkout.contractInvoice', { id: contract.invoice_id })
              : t('billing.checkout.subtotal')}
          </Text>
          <Text>{contract ? `${priceLabel(contract.amount)} USD` : priceText(product, t)}</Text>
        </Group>
        {contract?.description ? <Text size="sm">{contract.description}</Text> : null}
        {discount ? (
          <Group justify="space-between">
            <Text>
              {t('billing.checkout.discount')} ({discount.code})
            </Text>
            <Text>-{priceLabel(discount.amount_off)} USD</Text>
          </Group>
        ) : null}
        <Divider />
        <Group justify="space-between">
          <Text fw={700}>{t('billing.checkout.total')}</Text>
          <Text fw={700} data-testid="checkout-total">
            {priceLabel(contract ? contract.amount : discount ? discount.discounted_price : price)} USD
          </Text>
        </Group>
        {contract ? null : (
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('billing.checkout.discountCode')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={error}
              maxLength={64}
              style={{ flex: 1 }}
            />
            <Button variant="light" onClick={apply} loading={quote.isPending} disabled={!code.trim()}>
              {t('billing.checkout.apply')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function CardPayment({
  product,
  contract,
  discount,
}: {
  product: Product;
  contract: Invoice | null;
  discount: DiscountQuote | null;
}) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const card = useCard();
  const sources = usePaymentSources();
  const [source, setSource] = useState<string>(NEW_CARD_SOURCE);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const usable = (sources.data ?? []).filter(
    (s) => (s.organization_id ?? null) === (product.organization_id ?? null),
  );
  const total = contract
    ? contract.amount
    : discount
      ? discount.discounted_price
      : (product.sale_price ?? product.price);

  const pay = async () => {
    setError(null);
    setBusy(true);
    try {
      const payment_method_id = source === NEW_CARD_SOURCE ? await card.createPaymentMethod() : undefined;
      let answer = await checkoutAttempt({
        type: 'product',
        product_id: product.product_id,
        discountCode: contract ? null : (discount?.code ?? null),
        ...(contract ? { contract_invoice_id: contract.invoice_id } : {}),
        payment_source_id: source,
        ...(payment_method_id ? { payment_method_id } : {}),
      });
      if (answer.requires_action && answer.client_secret) {
        await card.confirmPayment(answer.client_secret);
        answer = await checkoutCapture({ purchase_id: answer.purchase_id! });
      }
      navigate(`/thankyou/${answer.purchase_id}`);
    } catch (e) {
      setError(purchaseErrorText(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Radio.Group label={t('billing.checkout.payWith')} value={source} onChange={setSource}>
        <Stack gap="xs" mt="xs">
          <Radio value={NEW_CARD_SOURCE} label={t('billing.checkout.newCard')} />
          {usable.map((s) => (
            <Radio
              key={s.payment_source_id}
              value={String(s.payment_source_id)}
              label={t('billing.checkout.savedCard', { brand: s.brand, last4: s.last4 })}
            />
          ))}
        </Stack>
      </Radio.Group>
      {source === NEW_CARD_SOURCE ? <CardField /> : null}
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Button onClick={pay} loading={busy} disabled={!card.ready}>
        {product.is_subscription && total === 0
          ? t('billing.checkout.subscribe')
          : t('billing.checkout.pay', { amount: priceLabel(total) })}
      </Button>
    </Stack>
  );
}

function PayPalPayment({
  product,
  discount,
  clientId,
}: {
  product: Product;
  discount: DiscountQuote | null;
  clientId: string;
}) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const body = { product_id: product.product_id, discountCode: discount?.code ?? null };
  return (
    <Stack gap="xs">
      <Divider label={t('billing.checkout.paypal')} />
      <PayPalButtons
        clientId={clientId}
        subscription={product.is_subscription}
        createOrder={async () => (await paypalCreateOrder(body)).orderID}
        createPlan={() => paypalCreateSubscription(body)}
        onApproved={async (data) => {
          try {
            const done = product.is_subscription
              ? await paypalCaptureSubscription({
                  ...body,
                  subscriptionID: data.subscriptionID,
                  purchase_id: data.purchase_id,
                })
              : await paypalCaptureOrder({ ...body, orderID: data.orderID });
            navigate(`/thankyou/${done.purchase_id}`);
          } catch (e) {
            setError(purchaseErrorText(e, t));
          }
        }}
        onError={(e) => setError(purchaseErrorText(e, t))}
      />
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
