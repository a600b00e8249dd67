import { Button, Group, PasswordInput } from '@mantine/core';
import { IconWand } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { newPassword } from '../lib/password';
import { useTranslation } from '../lib/use-translation';
import { CopyButton } from './copy-button';

/**
 * A password input with show/hide and a 'generate' button (14 characters, spec section 5). A
 * generated password shows in clear so it can be read and copied.
 */
export function PasswordField({
  label,
  value,
  error,
  description,
  onChange,
  onBlur,
  testId,
  autoFocus,
  required = true,
}: {
  label: string;
  value: string;
  error?: ReactNode;
  description?: ReactNode;
  onChange: (value: string) => void;
  onBlur?: () => void;
  testId: string;
  /** Takes the focus when its dialog opens. */
  autoFocus?: boolean;
  /** Account passwords always are; an installed application may ask for an optional one. */
  required?: boolean;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <PasswordInput
        style={{ flex: 1 }}
        label={label}
        description={description}
        value={value}
        error={error}
        onChange={(event) => onChange(event.currentTarget.value)}
        onBlur={onBlur}
        visible={visible}
        onVisibilityChange={setVisible}
        visibilityToggleButtonProps={{
          'aria-label': visible ? t('password.hide') : t('password.show'),
        }}
        autoComplete="new-password"
        maxLength={128}
        required={required}
        data-autofocus={autoFocus || undefined}
        data-testid={testId}
      />
      <Group gap={4} mt={description ? 48 : 26} wrap="nowrap">
        <Button
          variant="light"
          leftSection={<IconWand size={16} aria-hidden />}
          onClick={() => {
            onChange(newPassword());
            setVisible(true);
          }}
          data-testid={`${testId}-generate`}
        >
          {t('password.generate')}
        </Button>
        {value ? <CopyButton value={value} label={t('password.copy')} /> : null}
      </Group>
    </Group>
  );
}
