import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Progress,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { DnssecUnsignJob, DnssecZoneData, ZoneDs } from '@panel247/contract/dnssec';
import { DNSSEC_ALGORITHMS, DNSSEC_DIGEST_TYPES } from '@panel247/contract/domain-rules';
import { IconCircleCheck, IconCircleDashed, IconLoader2 } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { CopyButton } from '../../../components/copy-button';
import { HexText } from '../../../components/hex-text';
import { formatEpoch } from '../../../lib/dates';
import { notifyCall, notifyError, notifySuccess } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useTranslation } from '../../../lib/use-translation';
import { useDnssecState } from '../api/dnssec-state';
import { useSignDnsZone } from '../api/sign-dns-zone';
import { useUnsignDnsZone } from '../api/unsign-dns-zone';

const STATE_COLORS: Record<DnssecZoneData['state'], string> = {
  unavailable: 'gray',
  unsigned: 'gray',
  signed: 'teal',
  unsigning: 'orange',
};

/** The three steps of unsigning, in the order the server runs them. */
const UNSIGN_STEPS = ['removing_ds', 'waiting', 'removing_keys'] as const;

/**
 * The zone's DNSSEC in the DNS view: whether it is signed, its DS (to copy, and whether the
 * registry holds each), "sign" (publishing the DS at the registry in the same step when the user
 * may change the domain's DNSSEC), and unsigning as a job whose steps the card follows.
 */
export function DnssecCard({ serviceId, canWrite }: { serviceId: number; canWrite: boolean }) {
  const { t } = useTranslation();
  const state = useDnssecState(serviceId);
  const sign = useSignDnsZone(serviceId);
  const unsign = useUnsignDnsZone(serviceId);
  const [publish, setPublish] = useState(true);
  const [confirming, setConfirming, closeConfirm] = useDialog(false);
  const data = state.data;
  const writable = canWrite && (data?.writable ?? false);

  const runSign = () => sign.mutate(publish, { onSuccess: ({ info }) => notifySuccess(info), onError: notifyError });
  const runUnsign = () => notifyCall(async () => (await unsign.mutateAsync()).info, closeConfirm);

  return (
    <Card withBorder padding="lg" data-testid="dnssec-card">
      <Group justify="space-between" wrap="wrap" mb="xs" gap="xs">
        <Title order={2} size="h4">
          {t('dns.dnssec.title')}
        </Title>
        {data ? (
          <Badge color={STATE_COLORS[data.state]} variant="light" data-testid="dnssec-state">
            {t(`dns.dnssec.state_${data.state}`)}
          </Badge>
        ) : null}
      </Group>
      {state.isPending ? (
        <Skeleton height={48} aria-label={t('dns.dnssec.loading')} />
      ) : !data ? (
        <Text size="sm" c="red" role="alert">
          {t('dns.dnssec.load_error')}
        </Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t(`dns.dnssec.explain_${data.state}`)}
          </Text>
          {data.ds.length > 0 ? <DsList ds={data.ds} /> : null}
          {data.state === 'unsigning' && data.job ? <UnsignProgress job={data.job} /> : null}
          {data.job?.status === 'failed' ? (
            <Alert color="red" title={t('dns.dnssec.unsign_failed')} data-testid="dnssec-job-error">
              {data.job.error}
            </Alert>
          ) : null}
          {writable && data.state === 'unsigned' ? (
            <Stack gap="xs" align="flex-start">
              {data.registry ? (
                <Checkbox
                  label={t('dns.dnssec.publish')}
                  checked={publish}
                  onChange={(event) => setPublish(event.currentTarget.checked)}
                  data-testid="dnssec-publish"
                />
              ) : (
                <Text size="sm">{t('dns.dnssec.publish_yourself')}</Text>
              )}
              <Button onClick={runSign} loading={sign.isPending} data-testid="dnssec-sign">
                {t('dns.dnssec.sign')}
              </Button>
            </Stack>
          ) : null}
          {writable && data.state === 'signed' ? (
            <Group>
              <Button variant="light" color="red" onClick={() => setConfirming(true)} data-testid="dnssec-unsign">
                {t('dns.dnssec.unsign')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
      <ConfirmModal
        opened={confirming}
        title={t('dns.dnssec.unsign_title')}
        message={t('dns.dnssec.unsign_confirm')}
        confirmLabel={t('dns.dnssec.unsign')}
        busy={unsign.isPending}
        onConfirm={runUnsign}
        onClose={closeConfirm}
        testId="dnssec-unsign-modal"
      />
    </Card>
  );
}

/** The zone's DS records: what a registry needs, each copyable, and whether the registry holds it. */
function DsList({ ds }: { ds: ZoneDs[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="dnssec-ds">
      {ds.map((record) => {
        const line = `${record.keytag} ${record.algorithm} ${record.digestType} ${record.digest}`;
        return (
          <Stack key={`${record.digestType}-${record.digest}`} gap={2}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={500}>
                {t('domain.dnssec.keytag')} {record.keytag}
              </Text>
              <Text size="sm">
                {t('domain.dnssec.algorithm')} {record.algorithm} ({DNSSEC_ALGORITHMS[record.algorithm] ?? '?'}) ·{' '}
                {t('domain.dnssec.digest_type')} {record.digestType} ({DNSSEC_DIGEST_TYPES[record.digestType] ?? '?'})
              </Text>
              <Badge size="sm" variant="light" color={record.atRegistry ? 'teal' : 'gray'}>
                {record.atRegistry ? t('dns.dnssec.at_registry') : t('dns.dnssec.not_at_registry')}
              </Badge>
              <CopyButton value={line} label={t('dns.dnssec.copy_ds', { keytag: record.keytag })} />
            </Group>
            <HexText value={record.digest} copyLabel={t('domain.dnssec.copy_digest', { keytag: record.keytag })} />
          </Stack>
        );
      })}
    </Stack>
  );
}

/** Where the unsigning is: its steps, and during the wait how much of it has passed. */
function UnsignProgress({ job }: { job: DnssecUnsignJob }) {
  const { t, i18n } = useTranslation();
  const current = UNSIGN_STEPS.indexOf(job.step as (typeof UNSIGN_STEPS)[number]);
  const now = Date.now() / 1000;
  const waited =
    job.step === 'waiting' && job.waitSeconds > 0
      ? Math.min(100, Math.max(0, 100 - ((job.waitUntil - now) / job.waitSeconds) * 100))
      : job.step === 'removing_keys'
        ? 100
        : 0;
  const until = formatEpoch(job.waitUntil, i18n.language);
  return (
    <Stack gap="xs" data-testid="dnssec-progress">
      <List spacing={4} size="sm" center>
        {UNSIGN_STEPS.map((step, index) => (
          <List.Item
            key={step}
            data-step={step}
            data-current={index === current ? 'true' : undefined}
            icon={
              index < current ? (
                <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" aria-hidden />
              ) : index === current ? (
                <IconLoader2 size={16} aria-hidden />
              ) : (
                <IconCircleDashed size={16} aria-hidden />
              )
            }
          >
            <Text size="sm" fw={index === current ? 600 : 400}>
              {t(`dns.dnssec.step_${step}`)}
              {index === current ? (
                <VisuallyHidden component="span">{` (${t('dns.dnssec.current')})`}</VisuallyHidden>
              ) : null}
            </Text>
          </List.Item>
        ))}
      </List>
      {job.step === 'waiting' ? (
        <>
          <Progress value={waited} aria-label={t('dns.dnssec.wait_progress')} />
          <Text size="xs" c="dimmed">
            {t('dns.dnssec.wait_until', { time: until })}
          </Text>
        </>
      ) : null}
    </Stack>
  );
}
