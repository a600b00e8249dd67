import { Anchor, Checkbox, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Trans } from 'react-i18next';
import { usePrivacyPolicy } from '../api/get-privacy-policy';
import { useTranslation } from '../lib/use-translation';
import { AppModal } from './app-modal';

/** Plain text, paragraphs split by blank lines: rendered as text, never as HTML. */
export function PolicyText({ text }: { text: string }) {
  const paragraphs = text.split(/\r?\n\s*\r?\n/).filter((p) => p.trim());
  return (
    <Stack gap="sm">
      {paragraphs.map((paragraph, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of a fixed text, never reordered
        <Text key={index} size="sm" style={{ whiteSpace: 'pre-line' }}>
          {paragraph}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * The required "I accept the privacy policy" box. The policy opens in a modal, or in a new tab
 * when the server gives a `redirecTo` link.
 */
export function PrivacyPolicyCheckbox({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const policy = usePrivacyPolicy(i18n.language);
  const [opened, setOpened] = useState(false);
  const redirect = policy.data?.redirecTo ?? '';

  const link = redirect ? (
    <Anchor href={redirect} target="_blank" rel="noopener noreferrer" data-testid="privacy-link">
      {t('privacy.policy')}
    </Anchor>
  ) : (
    <Anchor
      component="button"
      type="button"
      onClick={() => setOpened(true)}
      data-testid="privacy-link"
      style={{ verticalAlign: 'baseline' }}
    >
      {t('privacy.policy')}
    </Anchor>
  );

  return (
    <>
      <Checkbox
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
        required
        data-testid="privacy-checkbox"
        label={<Trans i18nKey="privacy.accept" components={{ policy: link }} />}
      />
      <AppModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={policy.data?.title ?? t('privacy.policy')}
        size="lg"
      >
        {policy.isPending ? <Loader size="sm" role="status" aria-label={t('main.loading')} /> : null}
        {policy.isError ? <Text c="red">{t('errors.generic')}</Text> : null}
        {policy.data ? <PolicyText text={policy.data.text} /> : null}
      </AppModal>
    </>
  );
}
