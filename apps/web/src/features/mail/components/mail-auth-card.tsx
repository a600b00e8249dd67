import { Alert, Badge, Button, Card, Code, Group, Skeleton, Stack, Stepper, Text, Title } from '@mantine/core';
import { isActionable } from '@panel247/contract/constants';
import type { DkimKey, MailAuthData, MailAuthRecord } from '@panel247/contract/mail-auth';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconKey, IconPencil } from '@tabler/icons-react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { CopyButton } from '../../../components/copy-button';
import { lazyDialog } from '../../../components/lazy-dialog';
import { formatEpoch } from '../../../lib/dates';
import { notifyCall } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { usePhone } from '../../../lib/use-phone';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useRotateDkim } from '../api/rotate-dkim';
import { useMailAuth } from '../api/use-mail-auth';

const MailPolicyModal = lazyDialog(() => import('./mail-policy-modal').then((m) => m.MailPolicyModal), {
  opened: false,
});

// Badges are "dot" or "outline": their text keeps the page's own colour, whatever the state colour.
const LOOKUP_COLORS = { found: 'teal', different: 'orange', missing: 'red', unknown: 'gray' } as const;

/** Who may change what: the mail area's action, and the zone's too when the records live here. */
export function mailAuthRights(set: PermissionSetData, data: MailAuthData | undefined): boolean {
  const mail = isActionable(set.permissions.servicemail);
  return mail && (!data?.hosted || isActionable(set.permissions.service_dnszone));
}

/** A TXT record as another provider's form asks for it: name and value, each with a copy button, and its state. */
function RecordBlock({
  record,
  hosted,
  testId,
  kind,
}: {
  record: MailAuthRecord;
  hosted: boolean;
  testId: string;
  /** SPF and DMARC: what the name servers answer is checked as receivers read it. */
  kind?: 'spf' | 'dmarc';
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid={testId} data-lookup={record.lookup}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('mail.auth.record_name')}
        </Text>
        <Code style={{ overflowWrap: 'anywhere' }}>{record.name}</Code>
        <CopyButton value={record.name} label={t('mail.auth.copy_name')} />
        <Badge variant="outline" color="gray">
          TXT
        </Badge>
      </Group>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code
          block
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', flex: 1 }}
          data-testid={`${testId}-value`}
        >
          {record.value}
        </Code>
        <CopyButton value={record.value} label={t('mail.auth.copy_value')} />
      </Group>
      <Group gap="xs">
        {hosted ? (
          <Badge variant="dot" color={record.published ? 'teal' : 'orange'}>
            {t(record.published ? 'mail.auth.published' : 'mail.auth.not_published')}
          </Badge>
        ) : null}
        <Badge variant="dot" color={LOOKUP_COLORS[record.lookup]} data-testid={`${testId}-lookup`}>
          {t(`mail.auth.lookup_${record.lookup}`)}
        </Badge>
      </Group>
      {kind && record.problem ? (
        <Alert color="red" variant="light" p="xs" data-testid={`${testId}-problem`} data-problem={record.problem}>
          {t(`mail.auth.problem.${kind}_${record.problem}`, { lookups: record.lookups ?? 0 })}
        </Alert>
      ) : null}
    </Stack>
  );
}

function KeyBlock({ dkimKey, hosted }: { dkimKey: DkimKey; hosted: boolean }) {
  const { t, i18n } = useTranslation();
  // through formatEpoch: the server draws this card in the visitor's time zone
  const date = (seconds: number | null) => (seconds === null ? '' : formatEpoch(seconds, i18n.language, 'minute'));
  return (
    <Stack gap="xs" data-testid="mail-auth-key" data-selector={dkimKey.selector} data-state={dkimKey.state}>
      <Group gap="xs">
        <Text fw={600} size="sm">
          {t('mail.auth.selector')}: <Code>{dkimKey.selector}</Code>
        </Text>
        <Badge variant="outline">{dkimKey.algorithm === 'rsa' ? 'RSA 2048' : 'Ed25519'}</Badge>
        <Badge
          variant="dot"
          color={dkimKey.state === 'active' ? 'teal' : dkimKey.state === 'pending' ? 'blue' : 'gray'}
        >
          {t(`mail.auth.state_${dkimKey.state}`)}
        </Badge>
      </Group>
      {dkimKey.state === 'retiring' && dkimKey.retireAt !== null ? (
        <Text size="xs" c="dimmed">
          {t('mail.auth.withdrawn_at', { date: date(dkimKey.retireAt) })}
        </Text>
      ) : null}
      <RecordBlock record={dkimKey.record} hosted={hosted} testId={`mail-auth-dkim-${dkimKey.selector}`} />
    </Stack>
  );
}

/** The rotation's three steps; the active one is where it waits. */
function RotationSteps({ data }: { data: MailAuthData }) {
  const { t } = useTranslation();
  const phone = usePhone();
  if (data.dkim.rotation === 'idle') return null;
  const active = data.dkim.rotation === 'publishing' ? 1 : 2;
  return (
    <Stepper
      active={active}
      size="sm"
      orientation={phone ? 'vertical' : 'horizontal'}
      data-testid="mail-auth-rotation"
      data-step={data.dkim.rotation}
    >
      <Stepper.Step label={t('mail.auth.step_publish')} description={t('mail.auth.step_publish_text')} />
      <Stepper.Step
        label={t('mail.auth.step_switch')}
        description={t(data.hosted ? 'mail.auth.step_switch_text' : 'mail.auth.step_switch_elsewhere')}
        loading={active === 1}
      />
      <Stepper.Step label={t('mail.auth.step_withdraw')} description={t('mail.auth.step_withdraw_text')} />
    </Stepper>
  );
}

/** DKIM, SPF and DMARC of the service's domain, in the mail view. */
export function MailAuthCard({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const query = useMailAuth(set.id);
  const rotate = useRotateDkim(set.id);
  const data = query.data;
  const canChange = mailAuthRights(set, data);
  const [confirming, setConfirming, closeConfirm] = useDialog(false);
  const [editing, setEditing, closeEdit] = useDialog(false);
  const confirmShown = useRightGuard(confirming, canChange, closeConfirm);

  return (
    <Card withBorder padding="md" data-testid="mail-auth" aria-busy={query.isFetching}>
      <Stack gap="md">
        <Group justify="space-between" align="center" wrap="wrap">
          <Stack gap={2}>
            <Title order={2} size="h4">
              {t('mail.auth.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {data ? t(data.hosted ? 'mail.auth.hosted' : 'mail.auth.elsewhere', { domain: data.domain }) : null}
            </Text>
          </Stack>
          {data && canChange ? (
            <Group gap="xs">
              <Button
                variant="default"
                leftSection={<IconPencil size={16} aria-hidden />}
                onClick={() => setEditing(true)}
                data-testid="mail-auth-edit"
              >
                {t('mail.auth.edit_policy')}
              </Button>
              <Button
                leftSection={<IconKey size={16} aria-hidden />}
                onClick={() => setConfirming(true)}
                disabled={data.dkim.rotation !== 'idle'}
                data-testid="mail-auth-rotate"
              >
                {t('mail.auth.rotate')}
              </Button>
            </Group>
          ) : null}
        </Group>

        {query.isPending ? (
          <Stack gap="xs" data-testid="mail-auth-loading">
            <Skeleton height={18} width="40%" />
            <Skeleton height={60} />
            <Skeleton height={18} width="30%" />
          </Stack>
        ) : query.isError || !data ? (
          <Alert color="red" data-testid="mail-auth-error">
            <Group justify="space-between">
              <Text size="sm">{t('mail.auth.load_error')}</Text>
              <Button size="xs" variant="default" onClick={() => query.refetch()}>
                {t('mail.auth.retry')}
              </Button>
            </Group>
          </Alert>
        ) : (
          <>
            <Stack gap="sm">
              <Title order={3} size="h5">
                DKIM
              </Title>
              <RotationSteps data={data} />
              {data.dkim.keys.map((key) => (
                <KeyBlock key={key.selector} dkimKey={key} hosted={data.hosted} />
              ))}
            </Stack>
            <Stack gap="sm">
              <Title order={3} size="h5">
                SPF
              </Title>
              <Text size="sm">
                {data.spf.includes.length > 0
                  ? t('mail.auth.spf_includes', { list: data.spf.includes.join(', ') })
                  : t('mail.auth.spf_no_includes')}
              </Text>
              <RecordBlock record={data.spf.record} hosted={data.hosted} testId="mail-auth-spf" kind="spf" />
            </Stack>
            <Stack gap="sm">
              <Title order={3} size="h5">
                DMARC
              </Title>
              <Text size="sm" data-testid="mail-auth-dmarc-summary">
                {t('mail.auth.dmarc_summary', {
                  policy: t(`mail.auth.policy_${data.dmarc.policy}`),
                  pct: data.dmarc.pct,
                })}
              </Text>
              <RecordBlock record={data.dmarc.record} hosted={data.hosted} testId="mail-auth-dmarc" kind="dmarc" />
            </Stack>
          </>
        )}
      </Stack>

      <ConfirmModal
        opened={confirming && confirmShown}
        title={t('mail.auth.rotate_title')}
        message={t(data?.hosted ? 'mail.auth.rotate_confirm' : 'mail.auth.rotate_confirm_elsewhere')}
        confirmLabel={t('mail.auth.rotate')}
        busy={rotate.isPending}
        onConfirm={() => notifyCall(async () => (await rotate.mutateAsync()).info, closeConfirm)}
        onClose={closeConfirm}
        testId="mail-auth-rotate-modal"
        confirmTestId="mail-auth-rotate-confirm"
      />
      {data ? (
        <MailPolicyModal opened={editing} onClose={closeEdit} serviceId={set.id} data={data} allowed={canChange} />
      ) : null}
    </Card>
  );
}
