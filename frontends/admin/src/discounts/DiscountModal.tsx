import '@mantine/dates/styles.css';
import {
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, dateDisplayFormat, notifyError, notifySuccess, unwrap, useFormat } from '@avatar-studio/shared';
import { DISCOUNT_TYPES, type DiscountType } from '@avatar-studio/contracts/billing';
import { toCents } from '../common/money';
import { useProductOptions } from '../purchases/PurchasesPage';

export interface DiscountRow {
  discount_id: number;
  code: string;
  type: string;
  amount: number;
  product_id: number | null;
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  times_used: number;
  starts_at: string | null;
  expires_at: string | null;
  active: boolean;
}

type Num = number | string;
const day = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD') : null);
const optional = (value: Num) => (value === '' ? null : Number(value));

/** Create (no `discount`) or change a discount code. Fixed amounts are typed in dollars and sent in cents. */
export function DiscountModal({
  discount,
  onClose,
  onSaved,
}: {
  discount: DiscountRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const products = useProductOptions();
  const [code, setCode] = useState(discount?.code ?? '');
  const [type, setType] = useState<DiscountType>((discount?.type as DiscountType) ?? 'percent');
  const [amount, setAmount] = useState<Num>(
    discount ? (discount.type === 'fixed' ? discount.amount / 100 : discount.amount) : '',
  );
  const [productId, setProductId] = useState<string | null>(
    discount?.product_id ? String(discount.product_id) : null,
  );
  const [usageLimit, setUsageLimit] = useState<Num>(discount?.usage_limit ?? '');
  const [perUser, setPerUser] = useState<Num>(discount?.usage_limit_per_user ?? '');
  const [startsAt, setStartsAt] = useState<string | null>(day(discount?.starts_at ?? null));
  const [expiresAt, setExpiresAt] = useState<string | null>(day(discount?.expires_at ?? null));
  const [active, setActive] = useState(discount?.active ?? true);

  const save = useMutation({
    mutationFn: () => {
      const body = {
        code: code.trim(),
        type,
        amount: type === 'fixed' ? toCents(amount) : Number(amount || 0),
        product_id: productId ? Number(productId) : null,
        usage_limit: optional(usageLimit),
        usage_limit_per_user: optional(perUser),
        starts_at: startsAt,
        expires_at: expiresAt,
        active,
      };
      return discount
        ? unwrap(
            api.PUT('/api/discounts', {
              body: { ...body, discount_id: discount.discount_id } as never,
            }),
          )
        : unwrap(api.POST('/api/discounts', { body: body as never }));
    },
    onSuccess: () => {
      notifySuccess(t('discounts.saved'));
      onSaved();
    },
    onError: (error) => notifyError(error),
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={discount ? t('discounts.form.editTitle') : t('discounts.form.newTitle')}
      centered
      size="lg"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('discounts.form.code')}
            description={t('discounts.form.codeHint')}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            required
            maxLength={64}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('discounts.form.type')}
              data={DISCOUNT_TYPES.map((value) => ({ value, label: t(`discounts.form.types.${value}`) }))}
              value={type}
              allowDeselect={false}
              onChange={(value) => value && setType(value as DiscountType)}
              comboboxProps={{ withinPortal: true }}
            />
            <NumberInput
              label={type === 'percent' ? t('discounts.form.percent') : t('discounts.form.fixed')}
              value={amount}
              onChange={setAmount}
              min={type === 'percent' ? 1 : 0}
              max={type === 'percent' ? 100 : undefined}
              decimalScale={type === 'percent' ? 0 : 2}
              thousandSeparator=","
              required
            />
          </SimpleGrid>
          <Select
            label={t('discounts.form.product')}
            placeholder={t('discounts.everyProduct')}
            data={products.data ?? []}
            value={productId}
            onChange={setProductId}
            clearable
            searchable
            comboboxProps={{ withinPortal: true }}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label={t('discounts.form.usageLimit')}
              value={usageLimit}
              onChange={setUsageLimit}
              min={1}
              allowDecimal={false}
            />
            <NumberInput
              label={t('discounts.form.usageLimitPerUser')}
              value={perUser}
              onChange={setPerUser}
              min={1}
              allowDecimal={false}
            />
            <DatePickerInput
              label={t('discounts.form.startsAt')}
              value={startsAt}
              onChange={setStartsAt}
              valueFormat={dateDisplayFormat(format.language)}
              clearable
            />
            <DatePickerInput
              label={t('discounts.form.expiresAt')}
              value={expiresAt}
              onChange={setExpiresAt}
              valueFormat={dateDisplayFormat(format.language)}
              clearable
            />
          </SimpleGrid>
          <Switch
            label={t('discounts.form.active')}
            checked={active}
            onChange={(event) => setActive(event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('discounts.form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('discounts.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
