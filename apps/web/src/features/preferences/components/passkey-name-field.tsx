import { TextInput, type TextInputProps } from '@mantine/core';
import { PASSKEY_NAME_MAX } from '@panel247/contract/passkey-rules';
import type { TFunction } from 'i18next';
import { useTranslation } from '../../../lib/use-translation';

/** A passkey's name, as the add and rename dialogs check it before the server does. */
export function passkeyNameError(value: string, t: TFunction): string | null {
  const name = value.trim();
  if (!name) return t('validation.required');
  return name.length > PASSKEY_NAME_MAX ? t('validation.too_long') : null;
}

/** The name field of the add and rename dialogs (the form's input props spread in). */
export function PasskeyNameField({ testId, ...inputProps }: TextInputProps & { testId: string }) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('passkeys.name')}
      description={t('passkeys.name_hint')}
      required
      maxLength={PASSKEY_NAME_MAX}
      data-autofocus
      data-testid={testId}
      {...inputProps}
    />
  );
}
