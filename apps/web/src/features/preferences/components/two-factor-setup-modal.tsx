import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { TwoFactorSetupData } from '@panel247/contract/two-factor';
import { TOTP_CODE_PATTERN } from '@panel247/contract/two-factor-rules';
import { useEffect, useRef, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { TotpCodeInput, TotpEnrolment } from '../../../components/totp-enrolment';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess, translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useEnableTwoFactor } from '../api/two-factor-enable';
import { useTwoFactorSetup } from '../api/two-factor-setup';
import { RecoveryCodesList } from './recovery-codes-list';

function ConfirmCode({ setup, onEnabled }: { setup: TwoFactorSetupData; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const enable = useEnableTwoFactor();
  const codeInput = useRef<HTMLInputElement>(null);
  // The field comes after the QR code has loaded, when the dialog's own autofocus has passed.
  useEffect(() => codeInput.current?.focus(), []);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { code: '' },
    validate: { code: (value) => (TOTP_CODE_PATTERN.test(value.trim()) ? null : t('two_factor.code_six')) },
  });
  const submit = form.onSubmit(async ({ code }) => {
    try {
      const answer = await enable.mutateAsync({ code: code.trim() });
      notifySuccess(answer.system.info);
      onEnabled(answer.data.recoveryCodes);
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TotpEnrolment qr={setup.qr} secret={setup.secret} />
        <TotpCodeInput
          ref={codeInput}
          data-testid="two-factor-confirm-code"
          key={form.key('code')}
          {...form.getInputProps('code')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={enable.isPending} data-testid="two-factor-confirm">
            {t('two_factor.turn_on')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Set-up: a new secret as a QR code and as text, on once a first code from the app matches. */
export function TwoFactorSetupModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const setup = useTwoFactorSetup();
  const [codes, setCodes] = useState<string[] | null>(null);
  const { mutate, reset } = setup;

  useEffect(() => {
    if (!opened) return;
    setCodes(null);
    reset();
    mutate();
  }, [opened, mutate, reset]);

  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      // Recovery codes are shown once: a stray Escape must not hide them.
      escapeMode={codes ? 'none' : 'double'}
      title={t('two_factor.setup_title')}
      data-testid="two-factor-setup-modal"
    >
      {codes ? (
        <Stack gap="md">
          <RecoveryCodesList codes={codes} />
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="two-factor-done">
              {t('two_factor.done')}
            </Button>
          </Group>
        </Stack>
      ) : setup.isPending ? (
        <Loader size="sm" role="status" aria-label={t('main.loading')} />
      ) : setup.isError ? (
        <Stack gap="sm">
          <Text c="red" size="sm" role="alert">
            {translateError(setup.error)}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => mutate()}>
              {t('two_factor.retry')}
            </Button>
          </Group>
        </Stack>
      ) : setup.data ? (
        <ConfirmCode setup={setup.data} onEnabled={setCodes} />
      ) : null}
    </AppModal>
  );
}
