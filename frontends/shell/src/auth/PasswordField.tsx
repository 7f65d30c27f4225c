import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A password input whose show/hide toggle is reachable with the keyboard (Mantine skips it by default). */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation('shell');
  return (
    <PasswordInput
      {...props}
      visibilityToggleButtonProps={{ tabIndex: 0, 'aria-label': t('auth.showPassword') }}
    />
  );
}
