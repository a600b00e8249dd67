import { Code, Group, Image, Text, TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { useTranslation } from '../lib/use-translation';
import { CopyButton } from './copy-button';

/**
 * A new TOTP secret to set up in an authenticator app: its QR code (an SVG data URL) and the
 * secret as text to type in, with a copy button. Shared by the customer's preferences and the
 * provider's console sign-in.
 */
export function TotpEnrolment({ qr, secret }: { qr: string; secret: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm">{t('two_factor.scan')}</Text>
      <Image
        src={qr}
        alt={t('two_factor.qr_alt')}
        w={200}
        h={200}
        fit="contain"
        bg="white"
        p={4}
        mx="auto"
        data-testid="two-factor-qr"
      />
      <Text size="sm">{t('two_factor.secret_text')}</Text>
      <Group gap="xs" wrap="nowrap">
        <Code fz="md" style={{ overflowWrap: 'anywhere' }} data-testid="two-factor-secret">
          {secret}
        </Code>
        <CopyButton value={secret} />
      </Group>
    </>
  );
}

/**
 * The six-digit code of the app just set up (or of the one set up before), as both set-ups ask
 * for it: a numeric field the phone's keyboard and password managers fill (`one-time-code`).
 */
export function TotpCodeInput({ ref, ...props }: TextInputProps & { ref?: Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  return (
    <TextInput
      ref={ref}
      label={t('two_factor.code')}
      description={t('two_factor.code_six')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      required
      {...props}
    />
  );
}
