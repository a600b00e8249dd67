import { PASSKEY_NAME_MAX } from '@panel247/contract/passkey-rules';
import type { TFunction } from 'i18next';

/** A passkey's name, as the add and rename dialogs check it before the server does. */
export function passkeyNameError(value: string, t: TFunction): string | null {
  const name = value.trim();
  if (!name) return t('validation.required');
  return name.length > PASSKEY_NAME_MAX ? t('validation.too_long') : null;
}
