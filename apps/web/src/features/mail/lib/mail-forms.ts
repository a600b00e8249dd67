import { mailboxQuotaProblem, mailLocalPartProblem } from '@panel247/contract/mail-rules';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { checkTargets, rowOfServerError } from './target-rows';

/** Form checks; errors are i18n keys (spec section 5). */

export interface MailboxFormValues {
  name: string;
  password: string;
  /** MiB; '' for the plan's default. */
  quota: string | number;
}

export interface AliasFormValues {
  name: string;
  /** Every address of the domain (sent as an empty name). */
  wholeDomain: boolean;
  targets: string[];
}

/** The form always asks for a name: "every address of the domain" is its own checkbox. */
export function nameError(value: string): string | null {
  return mailLocalPartProblem(value, false) ?? null;
}

/** Required only (spec section 5): the server answers the rest of the service password rule. */
export function passwordError(value: string): string | null {
  return value === '' ? 'validation.required' : null;
}

export function quotaError(value: string | number): string | null {
  if (value === '') return null;
  return mailboxQuotaProblem(Number(value)) ?? null;
}

export function validateMailboxForm(values: MailboxFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = nameError(values.name);
  if (name) errors.name = name;
  const password = passwordError(values.password);
  if (password) errors.password = password;
  const quota = quotaError(values.quota);
  if (quota) errors.quota = quota;
  return errors;
}

/** The alias name is checked only when creating, and not for the whole domain. */
export function validateAliasForm(values: AliasFormValues, mode: 'create' | 'edit'): Record<string, string> {
  const errors: Record<string, string> = {};
  if (mode === 'create' && !values.wholeDomain) {
    const name = nameError(values.name);
    if (name) errors.name = name;
  }
  const check = checkTargets(values.targets);
  for (const [index, key] of Object.entries(check.rowErrors)) errors[`targets.${index}`] = key;
  if (check.error) errors.targets = check.error;
  return errors;
}

/** The server's field errors on the alias form: `target` (the first bad one) lands on the row it names. */
export function aliasServerErrors(error: unknown, targets: readonly string[]): Record<string, string> {
  const record = fieldErrorRecord(error);
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(record)) {
    if (field === 'target') errors[`targets.${rowOfServerError(targets, message)}`] = message;
    else errors[field] = message;
  }
  return errors;
}
