import '@mantine/dates/styles.css';
import { Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, dateDisplayFormat, notifyError, notifySuccess, unwrap, useFormat } from '@avatar-studio/shared';
import {
  BILLING_MESSAGES,
  INVOICE_DEFAULT_STATUS,
  INVOICE_STATUSES,
  PAYMENT_METHODS,
  type InvoiceStatus,
} from '@avatar-studio/contracts/billing';
import { toCents } from '../common/money';

export interface EditableInvoice {
  invoice_id: number;
  amount: number;
  status: string;
  payment_method_id: number | null;
  expiration_date: string | null;
  description: string | null;
}

/** Add (no `invoice`; status pending by default) or edit one of the customer's invoices. */
export function InvoiceModal({
  user_id,
  invoice,
  onClose,
  onSaved,
}: {
  user_id: number;
  invoice: EditableInvoice | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [amount, setAmount] = useState<number | string>(invoice ? invoice.amount / 100 : '');
  const [status, setStatus] = useState<string>(invoice?.status ?? INVOICE_DEFAULT_STATUS);
  const [method, setMethod] = useState<string | null>(
    invoice?.payment_method_id ? String(invoice.payment_method_id) : null,
  );
  const [due, setDue] = useState<string | null>(
    invoice?.expiration_date ? dayjs(invoice.expiration_date).format('YYYY-MM-DD') : null,
  );
  const [description, setDescription] = useState(invoice?.description ?? '');

  const save = useMutation({
    mutationFn: () => {
      const body = {
        amount: toCents(amount),
        status: status as InvoiceStatus,
        payment_method_id: method ? Number(method) : null,
        expiration_date: due,
        description: description.trim() || null,
      };
      return invoice
        ? unwrap(
            api.PUT('/api/invoices/admin', { body: { ...body, invoice_id: invoice.invoice_id } as never }),
          )
        : unwrap(api.POST('/api/invoices/admin', { body: { ...body, user_id } as never }));
    },
    onSuccess: (data) => {
      // The server's confirmation is the spec's 'Cargo guardado.'.
      notifySuccess(data.message || BILLING_MESSAGES.invoiceSaved);
      onSaved();
    },
    onError: (error) => notifyError(error),
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={
        invoice
          ? t('customers.invoices.editTitle', { id: invoice.invoice_id })
          : t('customers.invoices.addTitle')
      }
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <NumberInput
            label={t('customers.invoices.columns.amount')}
            value={amount}
            onChange={setAmount}
            min={0}
            decimalScale={2}
            thousandSeparator=","
            prefix="$"
            required
          />
          <Select
            label={t('customers.invoices.columns.status')}
            data={INVOICE_STATUSES.map((value) => ({ value, label: value }))}
            value={status}
            allowDeselect={false}
            onChange={(value) => value && setStatus(value)}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('customers.give.method')}
            data={PAYMENT_METHODS.map((m) => ({
              value: String(m.payment_method_id),
              label: t(`purchases.methods.${m.name}`),
            }))}
            value={method}
            onChange={setMethod}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <DatePickerInput
            label={t('customers.invoices.columns.due')}
            value={due}
            onChange={setDue}
            valueFormat={dateDisplayFormat(format.language)}
            clearable
          />
          <TextInput
            label={t('customers.invoices.description')}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            maxLength={1000}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('customers.give.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('customers.invoices.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
