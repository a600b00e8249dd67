import { PasswordInput, Stack, TextInput } from '@mantine/core';
import type { LightForm } from '../../../lib/use-light-form';
import { useTranslation } from '../../../lib/use-translation';

export type LoginValues = {
  domainName: string;
  username: string;
  password: string;
};

export const EMPTY_LOGIN: LoginValues = { domainName: '', username: '', password: '' };

/** Domain, user and password: all required (spec section 5), shared by the page and the modal. */
export function loginValidators(t: (key: string) => string) {
  const required = (value: string) => (value.trim() ? null : t('validation.required'));
  return {
    domainName: required,
    username: required,
    password: (value: string) => (value ? null : t('validation.required')),
  };
}

export function LoginFields({ form, autoFocus }: { form: LightForm<LoginValues>; autoFocus?: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <TextInput
        label={t('login.domain')}
        autoComplete="organization"
        autoCapitalize="none"
        spellCheck={false}
        required
        data-autofocus={autoFocus || undefined}
        {...form.inputProps('domainName')}
      />
      <TextInput
        label={t('login.user')}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        {...form.inputProps('username')}
      />
      <PasswordInput
        label={t('login.password')}
        autoComplete="current-password"
        required
        {...form.inputProps('password')}
      />
    </Stack>
  );
}
