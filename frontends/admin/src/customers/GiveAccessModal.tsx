import { Button, Group, Modal, NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, notifyError, notifySuccess, unwrap } from '@avatar-studio/shared';
import { PAYMENT_METHODS, PAYMENT_METHOD_IDS } from '@avatar-studio/contracts/billing';
import { toCents } from '../common/money';
import { useProductOptions } from '../purchases/PurchasesPage';

/** Give access to a customer: a gift or a paid purchase (total default 0), a product, expiration days, method. */
export function GiveAccessModal({
  user_id,
  onClose,
  onGiven,
}: {
  user_id: number;
  onClose: () => void;
  onGiven: () => void;
}) {
  const { t } = useTranslation('admin');
  const products = useProductOptions();
  const [kind, setKind] = useState<'gift' | 'paid'>('gift');
  const [productId, setProductId] = useState<string | null>(null);
  const [total, setTotal] = useState<number | string>(0);
  const [expirationDays, setExpirationDays] = useState<number | string>('');
  const [method, setMethod] = useState<string>(String(PAYMENT_METHOD_IDS.gift));

  const give = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/users/giveAccess', {
          body: {
            user_id,
            product_id: Number(productId),
            gift: kind === 'gift',
            total: kind === 'gift' ? 0 : toCents(total),
            ...(expirationDays === '' ? {} : { expiration_days: Number(expirationDays) }),
            payment_method_id: Number(method),
          },
        }),
      ),
    onSuccess: () => {
      notifySuccess(t('customers.give.given'));
      onGiven();
    },
    onError: (error) => notifyError(error),
  });

  const changeKind = (value: string) => {
    const next = value as 'gift' | 'paid';
    setKind(next);
    setMethod(String(next === 'gift' ? PAYMENT_METHOD_IDS.gift : PAYMENT_METHOD_IDS.cash));
    if (next === 'gift') setTotal(0);
  };

  return (
    <Modal opened onClose={onClose} title={t('customers.give.title')} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (productId) give.mutate();
        }}
      >
        <Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="give-kind">
              {t('customers.give.type')}
            </Text>
            <SegmentedControl
              aria-labelledby="give-kind"
              value={kind}
              onChange={changeKind}
              data={[
                { value: 'gift', label: t('customers.give.gift') },
                { value: 'paid', label: t('customers.give.paid') },
              ]}
            />
          </Stack>
          <Select
            label={t('customers.give.product')}
            data={products.data ?? []}
            value={productId}
            onChange={setProductId}
            searchable
            required
            comboboxProps={{ withinPortal: true }}
          />
          <NumberInput
            label={t('customers.give.total')}
            value={total}
            onChange={setTotal}
            min={0}
            decimalScale={2}
            thousandSeparator=","
            prefix="$"
            disabled={kind === 'gift'}
          />
          <NumberInput
            label={t('customers.give.expirationDays')}
            description={t('customers.give.expirationHint')}
            value={expirationDays}
            onChange={setExpirationDays}
            min={1}
            allowDecimal={false}
          />
          <Select
            label={t('customers.give.method')}
            data={PAYMENT_METHODS.map((m) => ({
              value: String(m.payment_method_id),
              label: t(`purchases.methods.${m.name}`),
            }))}
            value={method}
            allowDeselect={false}
            onChange={(value) => value && setMethod(value)}
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('customers.give.cancel')}
            </Button>
            <Button type="submit" loading={give.isPending} disabled={!productId}>
              {t('customers.give.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
