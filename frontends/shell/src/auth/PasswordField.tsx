import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A password input whose show/hide toggle is reachable with the keyboard and answers Enter as well as Space
 * (Mantine takes it out of the tab order by default).
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation('shell');
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...props}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{
        tabIndex: 0,
        'aria-label': t('auth.showPassword'),
        onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            setVisible((v) => !v);
          }
        },
      }}
    />
  );
}
