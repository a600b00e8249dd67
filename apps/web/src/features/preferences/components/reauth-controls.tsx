import { Button, Group, PasswordInput, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';

export type ReauthVia = 'code' | 'passkey';

/**
 * Which of the two submit buttons was pressed. The ref is read by the form's validation and submit
 * in the same click, before the state (for the busy button) has rendered.
 */
export function useReauthVia(hasPasskeys: boolean) {
  const ref = useRef<ReauthVia>(hasPasskeys ? 'passkey' : 'code');
  const [via, setVia] = useState<ReauthVia>(ref.current);
  const choose = useCallback((value: ReauthVia) => {
    ref.current = value;
    setVia(value);
  }, []);
  return { ref, via, choose };
}

/** The code field's rule: needed with TOTP on, unless one of the user's passkeys confirms. */
function reauthCodeError(value: string, needsCode: boolean, via: ReauthVia, required: string): string | null {
  return !needsCode || via === 'passkey' || value.trim() ? null : required;
}

/** What a modal that re-authenticates gets from its card. */
export interface ReauthModalProps {
  opened: boolean;
  onClose: () => void;
  /** TOTP is on: a code confirms. */
  needsCode: boolean;
  /** The user has passkeys: one of them confirms (instead of the code). */
  hasPasskeys: boolean;
}

/**
 * The password and code fields' rules of a re-authenticating form. `via` is read when the form
 * validates, so that the button pressed in the same click counts.
 */
export function reauthRules(needsCode: boolean, via: { current: ReauthVia }, required: string) {
  return {
    password: (value: string) => (value ? null : required),
    code: (value: string) => reauthCodeError(value, needsCode, via.current, required),
  };
}

/** The factors a re-authenticated call sends: the password, and the code or the passkey asked for. */
export function reauthFactors(
  values: { password: string; code: string },
  { needsCode, hasPasskeys }: Pick<ReauthModalProps, 'needsCode' | 'hasPasskeys'>,
  via: ReauthVia,
) {
  return {
    password: values.password,
    code: needsCode ? values.code.trim() : undefined,
    withPasskey: hasPasskeys && via === 'passkey',
  };
}

type ReauthForm = Pick<UseFormReturnType<{ password: string; code: string }>, 'key' | 'getInputProps'>;

/**
 * The re-authentication of a security change (a new passkey or API token, revoking every token):
 * what it asks for, the password, a current code when TOTP is on, and the buttons that confirm
 * with that code or with one of the user's passkeys (the browser asks for it). The server's rule
 * is the same for all of them (PasskeyService.confirmIdentity); so is this part of their forms.
 * Test ids: `${testId}-password`, `-code`, `-submit` (password or code) and `-submit-passkey`.
 */
export function ReauthControls({
  form,
  needsCode,
  hasPasskeys,
  via,
  onChoose,
  pending,
  onCancel,
  testId,
  labels,
  color,
}: {
  form: ReauthForm;
  /** TOTP is on: a code confirms. */
  needsCode: boolean;
  /** The user has passkeys: one of them confirms (instead of the code). */
  hasPasskeys: boolean;
  via: ReauthVia;
  onChoose: (via: ReauthVia) => void;
  pending: boolean;
  onCancel: () => void;
  testId: string;
  labels: { submit: string; withCode: string; withPasskey: string };
  /** `red` for a change that takes something away. */
  color?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm">
        {t(
          needsCode && hasPasskeys
            ? 'two_factor.reauth_with_code_or_passkey'
            : needsCode
              ? 'two_factor.reauth_text'
              : hasPasskeys
                ? 'two_factor.reauth_with_passkey'
                : 'two_factor.reauth_password',
        )}
      </Text>
      <PasswordInput
        label={t('preferences.actual_password')}
        autoComplete="current-password"
        required
        data-testid={`${testId}-password`}
        key={form.key('password')}
        {...form.getInputProps('password')}
      />
      {needsCode ? (
        <TextInput
          label={t('two_factor.code_or_recovery')}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          required={!hasPasskeys}
          data-testid={`${testId}-code`}
          key={form.key('code')}
          {...form.getInputProps('code')}
        />
      ) : null}
      <Group justify="flex-end" wrap="wrap">
        <Button variant="default" onClick={onCancel}>
          {t('main.cancel')}
        </Button>
        {!hasPasskeys || needsCode ? (
          <Button
            type="submit"
            color={color}
            variant={hasPasskeys ? 'light' : 'filled'}
            loading={pending && via === 'code'}
            onClick={() => onChoose('code')}
            data-testid={`${testId}-submit`}
          >
            {hasPasskeys ? labels.withCode : labels.submit}
          </Button>
        ) : null}
        {hasPasskeys ? (
          <Button
            type="submit"
            color={color}
            loading={pending && via === 'passkey'}
            onClick={() => onChoose('passkey')}
            data-testid={`${testId}-submit-passkey`}
          >
            {labels.withPasskey}
          </Button>
        ) : null}
      </Group>
    </>
  );
}
