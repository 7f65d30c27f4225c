import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, notifyError, notifySuccess, unwrap } from '@avatar-studio/shared';
import { CANCEL_REASON_MIN_LENGTH, type PurchaseStatus } from '@avatar-studio/contracts/billing';
import { toCents } from '../common/money';
import { selectableStatuses, statusWarning } from './status-rules';

export interface EditablePurchase {
  purchase_id: number;
  status: string;
  amount: number;
  expiration_days: number | null;
  cancel_reason: string | null;
}

/** The admin edit form of one purchase: status (with its rules and warnings), cancel reason, expiration, amount. */
export function EditPurchaseModal({
  purchase,
  onClose,
  onSaved,
}: {
  purchase: EditablePurchase;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState(purchase.status);
  const [cancelReason, setCancelReason] = useState(purchase.cancel_reason ?? '');
  const [expirationDays, setExpirationDays] = useState<number | string>(purchase.expiration_days ?? '');
  const [amount, setAmount] = useState<number | string>(purchase.amount / 100);
  const warning = statusWarning(purchase.status, status);
  const options = selectableStatuses(purchase.status).map((value) => ({
    value,
    label: t(`purchases.statuses.${value}`),
  }));
  // A stored status the form cannot pick (processing, failed) stays shown until another is chosen.
  if (!options.some((o) => o.value === purchase.status))
    options.unshift({
      value: purchase.status as PurchaseStatus,
      label: t(`purchases.statuses.${purchase.status}`),
    });
  const reasonMissing = status === 'cancelled' && cancelReason.trim().length < CANCEL_REASON_MIN_LENGTH;

  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/purchases/admin', {
          body: {
            purchase_id: purchase.purchase_id,
            ...(status !== purchase.status ? { status: status as PurchaseStatus } : {}),
            ...(status === 'cancelled' ? { cancel_reason: cancelReason.trim() } : {}),
            expiration_days: expirationDays === '' ? null : Number(expirationDays),
            amount: toCents(amount),
          },
        }),
      ),
    onSuccess: () => {
      notifySuccess(t('purchases.saved'));
      onSaved();
    },
    onError: (error) => notifyError(error),
  });

  return (
    <Modal opened onClose={onClose} title={t('purchases.form.title', { id: purchase.purchase_id })} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!reasonMissing) save.mutate();
        }}
      >
        <Stack>
          <Select
            label={t('purchases.form.status')}
            data={options}
            value={status}
            allowDeselect={false}
            onChange={(value) => value && setStatus(value)}
            comboboxProps={{ withinPortal: true }}
          />
          {warning ? (
            <Alert color={warning === 'granted' ? 'blue' : 'orange'} role="alert">
              {t(`purchases.form.warnings.${warning}`)}
            </Alert>
          ) : null}
          {status === 'cancelled' ? (
            <Textarea
              label={t('purchases.form.cancelReason')}
              value={cancelReason}
              onChange={(event) => setCancelReason(event.currentTarget.value)}
              error={
                reasonMissing && cancelReason.length > 0 ? 'You must include a cancel reason.' : undefined
              }
              required
              autosize
              minRows={2}
              maxLength={1000}
            />
          ) : null}
          <NumberInput
            label={t('purchases.form.expirationDays')}
            value={expirationDays}
            onChange={setExpirationDays}
            min={1}
            max={100000}
            allowDecimal={false}
          />
          <NumberInput
            label={t('purchases.form.amount')}
            value={amount}
            onChange={setAmount}
            min={0}
            decimalScale={2}
            thousandSeparator=","
            prefix="$"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('purchases.form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={reasonMissing}>
              {t('purchases.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
