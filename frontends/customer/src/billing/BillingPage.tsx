import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Modal,
  Paper,
  Radio,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  ConfirmModal,
  DANGER_BUTTON_COLOR,
  PageLoader,
  notifyError,
  notifySuccess,
  useFormat,
} from '@avatar-studio/shared';
import {
  CANCEL_REASON_MIN_LENGTH,
  CANCEL_RELOAD_DELAY_MS,
  NEW_CARD_SOURCE,
  priceLabel,
  purchaseBadge,
} from '@avatar-studio/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  billingKeys,
  checkoutAttempt,
  checkoutCapture,
  startCardSetup,
  useCancelPurchase,
  useDeleteCard,
  useInvoiceCheckoutKeys,
  useInvoices,
  usePaymentSources,
  usePurchases,
  useSaveCard,
  type CardSetup,
  type Invoice,
  type PaymentSource,
  type Purchase,
} from './api';
import { purchaseErrorText } from './errors';
import { CardField, StripeProvider, useCard } from './stripe';
import { STATUS_COLORS } from './ThankYouPage';
import { useScopeKey } from '@avatar-studio/shared';

const StatusBadge = ({ status }: { status: string }) => {
  const badge = purchaseBadge(status);
  return (
    <Badge color={STATUS_COLORS[badge] ?? 'gray'} autoContrast>
      {badge}
    </Badge>
  );
};

/** What was paid, and what of it was given back (a refund, a lost dispute). */
function Amount({ cents, refunded }: { cents: number; refunded: number }) {
  const { t } = useTranslation('customer');
  return (
    <>
      ${priceLabel(cents)}
      {refunded > 0 ? (
        <Text size="xs" c="dimmed">
          {t('billing.billing.refunded', { amount: priceLabel(refunded) })}
        </Text>
      ) : null}
    </>
  );
}

/**
 * Billing: the caller's purchases (cancel a subscription) and invoices (pay an open one), and saved cards. Card
 * forms load Stripe.js with the key of the account they pay or save at, so the page itself needs none.
 */
export function BillingPage() {
  const { t } = useTranslation('customer');
  return (
    <Container size="lg" py="md">
      <Title order={1} mb="md">
        {t('billing.billing.title')}
      </Title>
      <Stack gap="xl">
        <Tabs defaultValue="purchases">
          <Tabs.List>
            <Tabs.Tab value="purchases">{t('billing.billing.purchases')}</Tabs.Tab>
            <Tabs.Tab value="invoices">{t('billing.billing.invoices')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="purchases" pt="md">
            <PurchasesTab />
          </Tabs.Panel>
          <Tabs.Panel value="invoices" pt="md">
            <InvoicesTab />
          </Tabs.Panel>
        </Tabs>
        <SavedCards />
      </Stack>
    </Container>
  );
}

/** Cancelable: the caller's own active subscription that still renews. */
export const canCancel = (p: Purchase) =>
  p.status === 'active' && Boolean(p.subscription_id) && !p.cancel_at_period_end;

function PurchasesTab() {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const purchases = usePurchases();
  const [cancelling, setCancelling] = useState<Purchase | null>(null);
  if (purchases.isPending) return <PageLoader />;
  const rows = purchases.data?.purchases ?? [];
  if (rows.length === 0) return <Text c="dimmed">{t('billing.billing.noPurchases')}</Text>;
  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>{t('billing.billing.product')}</Table.Th>
              <Table.Th>{t('billing.billing.date')}</Table.Th>
              <Table.Th>{t('billing.billing.amount')}</Table.Th>
              <Table.Th>{t('billing.billing.status')}</Table.Th>
              <Table.Th>{t('billing.billing.expires')}</Table.Th>
              <Table.Th>{t('billing.billing.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.purchase_id}>
                <Table.Td>{p.purchase_id}</Table.Td>
                <Table.Td>{p.product?.name ?? '—'}</Table.Td>
                <Table.Td>{format.date(p.createdAt)}</Table.Td>
                <Table.Td>
                  <Amount cents={p.amount} refunded={p.refunded_amount} />
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} />
                </Table.Td>
                <Table.Td>{format.date(p.expires_at ?? p.current_period_end) ?? '—'}</Table.Td>
                <Table.Td>
                  {canCancel(p) ? (
                    <Button size="xs" variant="default" onClick={() => setCancelling(p)}>
                      {t('billing.billing.cancel')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <CancelModal purchase={cancelling} onClose={() => setCancelling(null)} />
    </>
  );
}

function CancelModal({ purchase, onClose }: { purchase: Purchase | null; onClose: () => void }) {
  const { t } = useTranslation('customer');
  const client = useQueryClient();
  const scope = useScopeKey();
  const cancel = useCancelPurchase();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const confirm = () => {
    if (!purchase) return;
    if (reason.trim().length < CANCEL_REASON_MIN_LENGTH) {
      setError(t('billing.errors.cancelReason'));
      return;
    }
    cancel.mutate(
      { purchase_id: purchase.purchase_id, cancel_reason: reason.trim() },
      {
        onSuccess: () => {
          notifySuccess(t('billing.billing.cancelled'));
          // The list reloads at once and again a moment later, when the provider's confirmation is in.
          const reload = () => client.invalidateQueries({ queryKey: billingKeys.purchases(scope) });
          void reload();
          timer.current = setTimeout(() => void reload(), CANCEL_RELOAD_DELAY_MS);
          close();
        },
        onError: (e) => setError(purchaseErrorText(e, t)),
      },
    );
  };
  return (
    <Modal
      opened={purchase !== null}
      onClose={close}
      title={t('billing.billing.cancelTitle')}
      closeButtonProps={{ 'aria-label': t('billing.billing.close') }}
    >
      <Stack>
        <Text size="sm">{t('billing.billing.cancelBody')}</Text>
        <Textarea
          label={t('billing.billing.cancelReason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
          minRows={3}
          maxLength={1000}
          autosize
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('billing.billing.keep')}
          </Button>
          <Button color={DANGER_BUTTON_COLOR} loading={cancel.isPending} onClick={confirm}>
            {t('billing.billing.confirmCancel')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function InvoicesTab() {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const invoices = useInvoices();
  const [paying, setPaying] = useState<Invoice | null>(null);
  if (invoices.isPending) return <PageLoader />;
  const rows = invoices.data?.invoices ?? [];
  if (rows.length === 0) return <Text c="dimmed">{t('billing.billing.noInvoices')}</Text>;
  return (
    <>
      <Table.ScrollContainer minWidth={560}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('billing.billing.number')}</Table.Th>
              <Table.Th>{t('billing.billing.description')}</Table.Th>
              <Table.Th>{t('billing.billing.date')}</Table.Th>
              <Table.Th>{t('billing.billing.amount')}</Table.Th>
              <Table.Th>{t('billing.billing.status')}</Table.Th>
              <Table.Th>{t('billing.billing.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((i) => (
              <Table.Tr key={i.invoice_id}>
                <Table.Td>{i.invoice_id}</Table.Td>
                <Table.Td>{i.description ?? '—'}</Table.Td>
                <Table.Td>{format.date(i.createdAt)}</Table.Td>
                <Table.Td>
                  <Amount cents={i.amount} refunded={i.refunded_amount} />
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={i.status} />
                </Table.Td>
                <Table.Td>
                  {i.status === 'pending' || i.status === 'failed' ? (
                    <Button size="xs" variant="default" onClick={() => setPaying(i)}>
                      {t('billing.billing.pay')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PayInvoiceModal invoice={paying} onClose={() => setPaying(null)} />
    </>
  );
}

/** Pays an open invoice at the account it belongs to: an organization's renewal with its key and its cards. */
function PayInvoiceModal({ invoice, onClose }: { invoice: Invoice | null; onClose: () => void }) {
  const { t } = useTranslation('customer');
  const keys = useInvoiceCheckoutKeys(invoice?.invoice_id ?? null);
  return (
    <Modal
      opened={invoice !== null}
      onClose={onClose}
      title={invoice ? t('billing.billing.payInvoice', { id: invoice.invoice_id }) : ''}
      closeButtonProps={{ 'aria-label': t('billing.billing.close') }}
    >
      {invoice === null ? null : keys.isPending ? (
        <PageLoader />
      ) : keys.isError ? (
        <Alert color="red" role="alert">
          {purchaseErrorText(keys.error, t)}
        </Alert>
      ) : (
        <StripeProvider publishableKey={keys.data.stripe_publishable_key}>
          <PayInvoiceForm invoice={invoice} organizationId={keys.data.organization_id} onClose={onClose} />
        </StripeProvider>
      )}
    </Modal>
  );
}

function PayInvoiceForm({
  invoice,
  organizationId,
  onClose,
}: {
  invoice: Invoice;
  organizationId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('customer');
  const client = useQueryClient();
  const scope = useScopeKey();
  const card = useCard();
  const sources = usePaymentSources();
  const [source, setSource] = useState(NEW_CARD_SOURCE);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Cards are saved per Stripe account: only those of the account this invoice is paid at can pay it.
  const accountCards = (sources.data ?? []).filter((s) => s.organization_id === organizationId);
  const pay = async () => {
    setError(null);
    setBusy(true);
    try {
      const payment_method_id = source === NEW_CARD_SOURCE ? await card.createPaymentMethod() : undefined;
      const answer = await checkoutAttempt({
        type: 'invoice',
        invoice_id: invoice.invoice_id,
        payment_source_id: source,
        ...(payment_method_id ? { payment_method_id } : {}),
      });
      if (answer.requires_action && answer.client_secret) {
        const payment_intent_id = await card.confirmPayment(answer.client_secret);
        await checkoutCapture({ invoice_id: invoice.invoice_id, payment_intent_id });
      }
      notifySuccess(t('billing.billing.invoicePaid'));
      await client.invalidateQueries({ queryKey: billingKeys.invoices(scope) });
      onClose();
    } catch (e) {
      setError(purchaseErrorText(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Text fw={600}>{priceLabel(invoice.amount)} USD</Text>
      <Radio.Group label={t('billing.checkout.payWith')} value={source} onChange={setSource}>
        <Stack gap="xs" mt="xs">
          <Radio value={NEW_CARD_SOURCE} label={t('billing.checkout.newCard')} />
          {accountCards.map((s) => (
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
        {t('billing.checkout.pay', { amount: priceLabel(invoice.amount) })}
      </Button>
    </Stack>
  );
}

function SavedCards() {
  const { t } = useTranslation('customer');
  const sources = usePaymentSources();
  const remove = useDeleteCard();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PaymentSource | null>(null);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="saved-cards">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="saved-cards">
          {t('billing.billing.cards')}
        </Title>
        <Button size="xs" variant="default" onClick={() => setAdding(true)}>
          {t('billing.billing.addCard')}
        </Button>
      </Group>
      {(sources.data ?? []).length === 0 ? (
        <Text c="dimmed">{t('billing.billing.noCards')}</Text>
      ) : (
        <Stack gap="xs">
          {sources.data!.map((s) => (
            <Group key={s.payment_source_id} justify="space-between">
              <Text>
                {t('billing.checkout.savedCard', { brand: s.brand, last4: s.last4 })} ·{' '}
                {t('billing.billing.expiry', {
                  month: String(s.exp_month).padStart(2, '0'),
                  year: s.exp_year,
                })}
              </Text>
              <Button size="xs" variant="default" onClick={() => setRemoving(s)}>
                {t('billing.billing.removeCard')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      <AddCardModal opened={adding} onClose={() => setAdding(false)} />
      <ConfirmModal
        opened={removing !== null}
        title={t('billing.billing.removeTitle')}
        body={
          removing ? t('billing.billing.removeBody', { brand: removing.brand, last4: removing.last4 }) : ''
        }
        cancelLabel={t('billing.billing.close')}
        confirmLabel={t('billing.billing.removeCard')}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.payment_source_id, {
            onSuccess: () => {
              notifySuccess(t('billing.billing.cardRemoved'));
              setRemoving(null);
            },
            onError: (e) => notifyError(e),
          })
        }
      />
    </Paper>
  );
}

/**
 * Saving a card starts its SetupIntent as the dialog opens: the account it is made at (an organization's own in its
 * scope) names the publishable key Stripe.js must confirm it with.
 */
function AddCardModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('customer');
  const [setup, setSetup] = useState<CardSetup | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    let live = true;
    setSetup(null);
    setError(null);
    startCardSetup().then(
      (started) => live && setSetup(started),
      (e: unknown) => live && setError(purchaseErrorText(e, t)),
    );
    return () => {
      live = false;
    };
  }, [opened, t]);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('billing.billing.addCard')}
      closeButtonProps={{ 'aria-label': t('billing.billing.close') }}
    >
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : setup ? (
        <StripeProvider publishableKey={setup.publishable_key}>
          <AddCardForm setup={setup} onClose={onClose} />
        </StripeProvider>
      ) : (
        <PageLoader />
      )}
    </Modal>
  );
}

function AddCardForm({ setup, onClose }: { setup: CardSetup; onClose: () => void }) {
  const { t } = useTranslation('customer');
  const card = useCard();
  const save = useSaveCard();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setError(null);
    setBusy(true);
    try {
      await card.confirmSetup(setup.client_secret);
      const saved = await save.mutateAsync(setup.setup_intent_id);
      notifySuccess(saved.message);
      onClose();
    } catch (e) {
      setError(purchaseErrorText(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <CardField />
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Button onClick={submit} loading={busy} disabled={!card.ready}>
        {t('billing.billing.saveCard')}
      </Button>
    </Stack>
  );
}
