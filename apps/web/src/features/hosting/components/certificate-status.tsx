import { Badge, Stack, Text, Timeline } from '@mantine/core';
import type { SiteCertificate } from '@panel247/contract/certificates';
import { IconCheck } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';
import { certificateColor, ORDER_STEPS, orderRunning, stepIndex } from '../lib/certificate-state';

/**
 * An automatic certificate in a site's row: a status dot (spec 1's model) with its state, then its
 * expiry, or the reason it failed in the user's language.
 */
export function CertificateBadge({ certificate }: { certificate: SiteCertificate }) {
  const { t, i18n } = useTranslation();
  const now = Math.floor(Date.now() / 1000);
  const state = t(`hosting.acme_state_${certificate.state}`);
  return (
    <Stack gap={2} data-testid="hosting-site-acme" data-state={certificate.state}>
      <Badge variant="dot" color={certificateColor(certificate, now)} style={{ textTransform: 'none' }}>
        {t('hosting.acme_badge', { state })}
      </Badge>
      {certificate.expiresAt > 0 ? (
        <Text size="xs" c="dimmed" data-testid="hosting-site-acme-expiry">
          {t('hosting.acme_expires', { date: formatEpoch(certificate.expiresAt, i18n.language, 'day') })}
        </Text>
      ) : null}
      {certificate.state === 'failed' && certificate.error ? (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }} data-testid="hosting-site-acme-error">
          {certificate.error}
        </Text>
      ) : null}
    </Stack>
  );
}

/** What the dialog says of the order: the step it is on (read out), then expiry, or why it failed. */
function progressText(certificate: SiteCertificate, t: TFunction, language: string) {
  if (certificate.state === 'failed') return t('hosting.acme_failed', { error: certificate.error });
  if (certificate.state === 'installed' && certificate.expiresAt > 0)
    return t('hosting.acme_done', { date: formatEpoch(certificate.expiresAt, language, 'day') });
  return t('hosting.acme_step', { step: t(`hosting.acme_state_${certificate.state}`) });
}

/** An order's steps (ordered, validating, issued, installed) as it runs. */
export function CertificateProgress({ certificate }: { certificate: SiteCertificate }) {
  const { t, i18n } = useTranslation();
  const failed = certificate.state === 'failed';
  const active = stepIndex(certificate.state);
  return (
    <Stack gap="sm" data-testid="hosting-acme-progress" data-state={certificate.state}>
      <Text
        size="sm"
        fw={500}
        c={failed ? 'red' : undefined}
        role="status"
        aria-live="polite"
        data-testid="hosting-acme-status"
      >
        {progressText(certificate, t, i18n.language)}
      </Text>
      {failed ? null : (
        <Timeline active={active} bulletSize={20} lineWidth={2} aria-label={t('hosting.acme_progress_label')}>
          {ORDER_STEPS.map((step, index) => (
            <Timeline.Item
              key={step}
              bullet={index <= active ? <IconCheck size={12} aria-hidden /> : null}
              title={t(`hosting.acme_state_${step}`)}
              data-testid={`hosting-acme-step-${step}`}
              data-done={index <= active}
              lineVariant={index < active ? 'solid' : 'dashed'}
            >
              {index === active + 1 && orderRunning(certificate.state) ? (
                <Text size="xs" c="dimmed">
                  {t('hosting.acme_waiting')}
                </Text>
              ) : null}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}
