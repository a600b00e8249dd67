import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCallback, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { Captcha } from '../../../components/captcha';
import { PrivacyPolicyCheckbox } from '../../../components/privacy-policy';
import { useApp } from '../../../lib/app-context';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useForgotPassword } from '../api/forgot-password';

interface Values {
  domain: string;
  user: string;
  name: string;
  email: string;
  contents: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function ForgotPasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { config } = useApp();
  const send = useForgotPassword();
  const [accepted, setAccepted] = useState(false);
  const [captcha, setCaptcha] = useState('');
  const [captchaReset, setCaptchaReset] = useState(0);
  const onCaptcha = useCallback((payload: string) => setCaptcha(payload), []);
  const required = (value: string) => (value.trim() ? null : t('validation.required'));
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: { domain: '', user: '', name: '', email: '', contents: '' },
    validate: {
      domain: required,
      user: required,
      name: required,
      email: (value) => required(value) ?? (EMAIL.test(value.trim()) ? null : t('validation.email')),
      contents: required,
    },
  });
  const captchaReady = config.captcha.provider === 'none' || captcha !== '';

  const submit = form.onSubmit(async (values) => {
    try {
      const system = await send.mutateAsync({ ...values, recaptcha_response: captcha });
      notifySuccess(system.info);
      onDone();
    } catch (error) {
      handleFormError(form, error);
      setCaptchaReset((n) => n + 1);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('login.domain')}
          required
          data-autofocus
          key={form.key('domain')}
          {...form.getInputProps('domain')}
        />
        <TextInput label={t('login.user')} required key={form.key('user')} {...form.getInputProps('user')} />
        <TextInput
          label={t('forgot.name')}
          required
          autoComplete="name"
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('forgot.email')}
          type="email"
          required
          autoComplete="email"
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <Textarea
          label={t('forgot.contents')}
          required
          autosize
          minRows={3}
          maxRows={8}
          key={form.key('contents')}
          {...form.getInputProps('contents')}
        />
        <Captcha onPayload={onCaptcha} resetKey={captchaReset} />
        <PrivacyPolicyCheckbox checked={accepted} onChange={setAccepted} />
        <Group justify="flex-end">
          <Button
            type="submit"
            disabled={!accepted || !captchaReady}
            loading={send.isPending}
            data-testid="forgot-send"
          >
            {t('main.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The login page's forgot-password form. It closes after a successful submit and, like every
 * modal, on a double Escape within 200 ms (spec 1 section 9).
 */
export default function ForgotPasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal opened={opened} onClose={onClose} title={t('forgot.title')} size="lg">
      <ForgotPasswordForm onDone={onClose} />
    </AppModal>
  );
}
