import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconBan, IconExternalLink, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  ConfirmModal,
  NotFound,
  PageLoader,
  VIEW_AS_HASH,
  api,
  formatMoney,
  notifyError,
  notifySuccess,
  unwrap,
  useCan,
  useFormat,
} from '@avatar-studio/shared';
import { PAYMENT_METHODS, purchaseBadge } from '@avatar-studio/contracts/billing';
import { numericId, usd } from '../common/money';
import { EditPurchaseModal, type EditablePurchase } from '../purchases/EditPurchaseModal';
import { PURCHASES_QUERY_KEY } from '../purchases/PurchasesPage';
import { GiveAccessModal } from './GiveAccessModal';
import { InvoiceModal, type EditableInvoice } from './InvoiceModal';
import { NewCustomerForm } from './NewCustomerForm';
import { CUSTOMERS_QUERY_KEY } from './CustomersPage';

export const CUSTOMER_QUERY_KEY = ['admin', 'customer'] as const;

/** /admin/users/{id}: one customer; a non-numeric id is the form for a new customer. */
export function CustomerPage() {
  const { user_id: raw } = useParams();
  const userId = numericId(raw);
  if (userId === null) return <NewCustomerForm />;
  return <CustomerDetail key={userId} userId={userId} />;
}

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {title}
          </Title>
          {action}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value ?? '—'}</Text>
    </div>
  );
}

function CustomerDetail({ userId }: { userId: number }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const queryClient = useQueryClient();
  const canManage = useCan('customers.manage');
  const canEditPurchases = useCan('billing.edit');
  const [giving, setGiving] = useState(false);
  const [revoking, setRevoking] = useState<number | null>(null);
  const [editing, setEditing] = useState<EditablePurchase | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const [invoiceEditing, setInvoiceEditing] = useState<EditableInvoice | 'new' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();

  const customer = useQuery({
    queryKey: [...CUSTOMER_QUERY_KEY, userId],
    queryFn: () => unwrap(api.GET('/api/users/{user_id}/admin', { params: { path: { user_id: userId } } })),
  });
  const ledger = useQuery({
    queryKey: [...CUSTOMER_QUERY_KEY, userId, 'ledger'],
    queryFn: () =>
      unwrap(api.GET('/api/users/{user_id}/admin/ledger', { params: { path: { user_id: userId } } })),
  });
  const purchases = useQuery({
    queryKey: [...PURCHASES_QUERY_KEY, { user_id: userId }],
    queryFn: () =>
      unwrap(api.GET('/api/purchases/admin', { params: { query: { user_id: userId, limit: 100 } } })),
  });
  const invoices = useQuery({
    queryKey: ['admin', 'invoices', { user_id: userId }],
    queryFn: () =>
      unwrap(api.GET('/api/invoices/admin', { params: { query: { user_id: userId, limit: 100 } } })),
  });

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: [...CUSTOMER_QUERY_KEY, userId] });
    await queryClient.invalidateQueries({ queryKey: PURCHASES_QUERY_KEY });
  };

  const email = customer.data?.user.email ?? '';
  const sendReset = useMutation({
    mutationFn: () => unwrap(api.POST('/api/users/sendResetPasswordLink', { body: { email } })),
    onSuccess: () => notifySuccess(t('customers.password.sent')),
    onError: (error) => notifyError(error),
  });
  const makeLink = useMutation({
    mutationFn: () => unwrap(api.POST('/api/users/resetPasswordLink', { body: { email } })),
    onSuccess: (data) => setLink(data.link),
    onError: (error) => notifyError(error),
  });
  const revoke = useMutation({
    mutationFn: (purchase_id: number) =>
      unwrap(api.PUT('/api/users/revokeAccess', { body: { purchase_id } })),
    onSuccess: async () => {
      setRevoking(null);
      notifySuccess(t('customers.purchases.revoked'));
      await refresh();
    },
    onError: (error) => notifyError(error),
  });

  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/users/admin/{user_id}', { params: { path: { user_id: userId } } })),
    onSuccess: async () => {
      setDeleting(false);
      notifySuccess(t('customers.actions.deleted'));
      queryClient.removeQueries({ queryKey: [...CUSTOMER_QUERY_KEY, userId] });
      await queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY });
      navigate('/admin/users');
    },
    onError: (error) => {
      setDeleting(false);
      notifyError(error);
    },
  });
  // The tab opens on the click (a tab opened after a network answer is blocked as a pop-up), then gets the code.
  const openAccount = useMutation({
    mutationFn: async (tab: Window | null) => {
      const { code } = await unwrap(
        api.POST('/api/users/{user_id}/admin/impersonation', { params: { path: { user_id: userId } } }),
      );
      return { tab, code };
    },
    onSuccess: ({ tab, code }) => {
      const url = `/#${VIEW_AS_HASH}=${encodeURIComponent(code)}`;
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else window.open(url, '_blank', 'noopener');
    },
    onError: (error, tab) => {
      tab?.close();
      notifyError(error);
    },
  });

  if (customer.isPending) return <PageLoader />;
  if (customer.isError) return <NotFound />;
  const { user, balance, organizations } = customer.data;
  const methodName = (id: number | null) => {
    const method = PAYMENT_METHODS.find((m) => m.payment_method_id === id);
    return method ? t(`purchases.methods.${method.name}`) : '—';
  };

  return (
    <Stack gap="md" p="md">
      <Anchor component={Link} to="/admin/users" size="sm">
        {t('customers.back')}
      </Anchor>
      <Group gap="sm">
        <Title order={1} size="h2">
          {`${user.name} ${user.last_name}`.trim()}
        </Title>
        <Badge color={user.has_access ? 'green' : 'gray'} variant="light">
          {user.has_access ? t('customers.profile.hasAccess') : t('customers.profile.noAccess')}
        </Badge>
      </Group>
      {/* Staff accounts are managed in Staff: they are not edited, opened or deleted here. */}
      {canManage && !user.staff ? (
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconPencil size={16} aria-hidden />}
            component={Link}
            to={`/admin/users/${userId}/edit`}
          >
            {t('customers.actions.edit')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconExternalLink size={16} aria-hidden />}
            loading={openAccount.isPending}
            onClick={() => openAccount.mutate(window.open('', '_blank'))}
          >
            {t('customers.actions.open')}
          </Button>
          <Button
            variant="light"
            // The theme's light red text (red 9) reads at 4.5:1; a shade given here (red.9) drops it to red 6.
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setDeleting(true)}
          >
            {t('customers.actions.delete')}
          </Button>
        </Group>
      ) : null}
      <ConfirmModal
        opened={deleting}
        title={t('customers.actions.deleteTitle', { name: `${user.name} ${user.last_name}`.trim() })}
        body={t('customers.actions.deleteBody')}
        cancelLabel={t('customers.actions.cancel')}
        confirmLabel={t('customers.actions.confirmDelete')}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setDeleting(false)}
      />

      <Section title={t('customers.profile.title')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t('customers.profile.email')} value={user.email} />
          <Field label={t('customers.profile.phone')} value={user.phone} />
          <Field label={t('customers.profile.company')} value={user.company} />
          <Field label={t('customers.profile.language')} value={user.lang} />
          <Field label={t('customers.profile.signedUp')} value={format.date(user.createdAt)} />
          <Field label={t('customers.profile.lastUsed')} value={format.date(user.last_used)} />
          <Field label={t('customers.profile.value')} value={`$${formatMoney(user.value)}`} />
          <Field label={t('customers.profile.signupReason')} value={user.signup_reason} />
          <Field label={t('customers.profile.staff')} value={user.staff?.role ?? null} />
        </SimpleGrid>
      </Section>

      {canManage ? (
        <Section title={t('customers.password.title')}>
          <Group>
            <Button variant="light" loading={sendReset.isPending} onClick={() => sendReset.mutate()}>
              {t('customers.password.send')}
            </Button>
            <Button variant="light" loading={makeLink.isPending} onClick={() => makeLink.mutate()}>
              {t('customers.password.link')}
            </Button>
          </Group>
          {link ? (
            <Group align="flex-end">
              <TextInput
                label={t('customers.password.linkLabel')}
                value={link}
                readOnly
                style={{ flex: 1 }}
              />
              <CopyButton value={link}>
                {({ copied, copy }) => (
                  <Button variant="default" onClick={copy}>
                    {copied ? t('customers.password.copied') : t('customers.password.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          ) : null}
        </Section>
      ) : null}

      <Section title={t('customers.organizations.title')}>
        {organizations.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('customers.organizations.empty')}
          </Text>
        ) : (
          <Table verticalSpacing="xs" aria-label={t('customers.organizations.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('customers.organizations.name')}</Table.Th>
                <Table.Th>{t('customers.organizations.role')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {organizations.map((org) => (
                <Table.Tr key={org.organization_id}>
                  <Table.Td>{org.name}</Table.Td>
                  <Table.Td>
                    {t(`customers.organizations.roles.${org.role}`, { defaultValue: org.role })}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>

      <Section title={t('customers.words.title')}>
        <Text size="sm">
          {t('customers.words.balance')}:{' '}
          <Text span fw={700}>
            {balance.unlimited ? t('customers.words.unlimited') : format.number(balance.words)}
          </Text>
        </Text>
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" aria-label={t('customers.words.ledger')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('customers.words.columns.date')}</Table.Th>
                <Table.Th ta="right">{t('customers.words.columns.change')}</Table.Th>
                <Table.Th>{t('customers.words.columns.source')}</Table.Th>
                <Table.Th>{t('customers.words.columns.expires')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(ledger.data?.entries ?? []).length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text c="dimmed" size="sm">
                      {t('customers.words.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                ledger.data!.entries.map((entry) => (
                  <Table.Tr key={entry.entry_id}>
                    <Table.Td>{format.dateTime(entry.createdAt)}</Table.Td>
                    <Table.Td ta="right">
                      {entry.unlimited ? t('customers.words.unlimited') : format.number(entry.words)}
                    </Table.Td>
                    <Table.Td>{entry.source}</Table.Td>
                    <Table.Td>{format.date(entry.expires_at) ?? '—'}</Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>

      <Section
        title={t('customers.purchases.title')}
        action={
          canManage ? <Button onClick={() => setGiving(true)}>{t('customers.purchases.give')}</Button> : null
        }
      >
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label={t('customers.purchases.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('purchases.columns.id')}</Table.Th>
                <Table.Th>{t('purchases.columns.date')}</Table.Th>
                <Table.Th>{t('purchases.columns.product')}</Table.Th>
                <Table.Th ta="right">{t('purchases.columns.amount')}</Table.Th>
                <Table.Th>{t('purchases.columns.method')}</Table.Th>
                <Table.Th>{t('purchases.columns.status')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('purchases.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(purchases.data?.purchases ?? []).length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={7}>
                    <Text c="dimmed" size="sm">
                      {t('customers.purchases.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                purchases.data!.purchases.map((row) => {
                  const badge = purchaseBadge(row.status);
                  const revocable = row.status !== 'revoked';
                  return (
                    <Table.Tr key={row.purchase_id}>
                      <Table.Td>{row.purchase_id}</Table.Td>
                      <Table.Td>{format.date(row.createdAt)}</Table.Td>
                      <Table.Td>
                        {row.product?.name ?? '—'}
                        {row.is_gift ? (
                          <Badge ml="xs" size="xs" variant="light">
                            {t('purchases.gift')}
                          </Badge>
                        ) : null}
                      </Table.Td>
                      <Table.Td ta="right">{usd(row.amount)}</Table.Td>
                      <Table.Td>{methodName(row.payment_method_id)}</Table.Td>
                      <Table.Td>
                        <Badge variant="light">
                          {t(`purchases.statuses.${badge}`, { defaultValue: badge })}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          {canEditPurchases ? (
                            <Tooltip label={t('purchases.edit')}>
                              <ActionIcon
                                variant="subtle"
                                aria-label={t('purchases.editLabel', { id: row.purchase_id })}
                                onClick={() => setEditing(row)}
                              >
                                <IconPencil size={18} aria-hidden />
                              </ActionIcon>
                            </Tooltip>
                          ) : null}
                          {canManage && revocable ? (
                            <Tooltip label={t('customers.purchases.revoke')}>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('customers.purchases.revokeLabel', { id: row.purchase_id })}
                                onClick={() => setRevoking(row.purchase_id)}
                              >
                                <IconBan size={18} aria-hidden />
                              </ActionIcon>
                            </Tooltip>
                          ) : null}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>

      <Section
        title={t('customers.invoices.title')}
        action={
          canEditPurchases ? (
            <Button variant="light" onClick={() => setInvoiceEditing('new')}>
              {t('customers.invoices.add')}
            </Button>
          ) : null
        }
      >
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" aria-label={t('customers.invoices.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('customers.invoices.columns.id')}</Table.Th>
                <Table.Th>{t('customers.invoices.columns.date')}</Table.Th>
                <Table.Th ta="right">{t('customers.invoices.columns.amount')}</Table.Th>
                <Table.Th>{t('customers.invoices.columns.status')}</Table.Th>
                <Table.Th>{t('customers.invoices.columns.due')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('purchases.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(invoices.data?.invoices ?? []).length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    <Text c="dimmed" size="sm">
                      {t('customers.invoices.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                invoices.data!.invoices.map((row) => (
                  <Table.Tr key={row.invoice_id}>
                    <Table.Td>{row.invoice_id}</Table.Td>
                    <Table.Td>{format.date(row.createdAt)}</Table.Td>
                    <Table.Td ta="right">{usd(row.amount)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{row.status}</Badge>
                    </Table.Td>
                    <Table.Td>{format.date(row.expiration_date) ?? '—'}</Table.Td>
                    <Table.Td>
                      {canEditPurchases ? (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('customers.invoices.editLabel', { id: row.invoice_id })}
                          onClick={() =>
                            setInvoiceEditing({
                              ...row,
                              expiration_date: row.expiration_date ? String(row.expiration_date) : null,
                            })
                          }
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>

      {invoiceEditing ? (
        <InvoiceModal
          user_id={userId}
          invoice={invoiceEditing === 'new' ? null : invoiceEditing}
          onClose={() => setInvoiceEditing(null)}
          onSaved={() => {
            setInvoiceEditing(null);
            void queryClient.invalidateQueries({ queryKey: ['admin', 'invoices'] });
          }}
        />
      ) : null}
      {giving ? (
        <GiveAccessModal
          user_id={userId}
          onClose={() => setGiving(false)}
          onGiven={() => {
            setGiving(false);
            void refresh();
          }}
        />
      ) : null}
      {editing ? (
        <EditPurchaseModal
          purchase={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      ) : null}
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('customers.purchases.revokeTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('customers.purchases.revokeBody', { id: revoking ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('customers.purchases.cancel')}
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() => revoking && revoke.mutate(revoking)}
            >
              {t('customers.purchases.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
