import { TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidPhone } from '@avatar-studio/contracts/phone';

/** Who a customer is: what staff type when they create one and when they edit one. */
export interface Identity {
  name: string;
  last_name: string;
  email: string;
  phone: string;
}
export type IdentityErrors = Partial<Record<keyof Identity, string>>;

// Linear: two runs of distinct characters around one @ (the server checks the address fully).
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The form's own checks of the identity fields (the server checks them again). */
export function identityErrors(values: Identity, t: TFunction): IdentityErrors {
  const found: IdentityErrors = {};
  if (!values.name.trim()) found.name = t('customers.create.invalidName');
  if (!values.last_name.trim()) found.last_name = t('customers.create.invalidLastName');
  if (!EMAIL.test(values.email.trim())) found.email = t('customers.create.invalidEmail');
  if (values.phone.trim() && !isValidPhone(values.phone)) found.phone = t('customers.create.invalidPhone');
  return found;
}

/** Name, last name, email and phone inputs, shared by the new-customer and edit-customer forms. */
export function IdentityFields({
  values,
  errors,
  set,
}: {
  values: Identity;
  errors: IdentityErrors;
  set: (key: keyof Identity) => (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <TextInput
        label={t('customers.create.name')}
        value={values.name}
        onChange={set('name')}
        error={errors.name}
        required
      />
      <TextInput
        label={t('customers.create.lastName')}
        value={values.last_name}
        onChange={set('last_name')}
        error={errors.last_name}
        required
      />
      <TextInput
        label={t('customers.create.email')}
        type="email"
        value={values.email}
        onChange={set('email')}
        error={errors.email}
        required
      />
      <TextInput
        label={t('customers.create.phone')}
        value={values.phone}
        onChange={set('phone')}
        error={errors.phone}
      />
    </>
  );
}
