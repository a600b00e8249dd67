import {
  Alert,
  Badge,
  Button,
  Code,
  FileButton,
  Group,
  Radio,
  ScrollArea,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { isActionable } from '@panel247/contract/constants';
import type { DnsImportData } from '@panel247/contract/dns-import';
import { DNS_IMPORT_MAX_TEXT, type DnsImportConflictChoice, type DnsImportMode } from '@panel247/contract/dns-rules';
import { isSpfText } from '@panel247/contract/mail-auth-rules';
import { IconFileUpload, IconServer } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { ApiError } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { usePermissionRecheck } from '../../../lib/use-permission-recheck';
import { usePhone } from '../../../lib/use-phone';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import {
  useApplyDnsImport,
  useDnsImportOptions,
  usePreviewDnsImport,
  useReadDnsZoneByAxfr,
} from '../api/import-dns-zone';

/** Rows shown per list of the preview; the counts say how many there are in all. */
const SHOWN = 200;

/**
 * Import of a BIND zone file: pasted or read from a file, previewed (what is added, changed,
 * removed, refused and kept, each refused line with its reason), then applied as one change.
 * Any edit of the text or the mode drops the preview, so what is applied is what was previewed.
 */
export function ZoneImportModal({
  opened,
  onClose,
  serviceId,
  zoneName,
  canWrite,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  zoneName: string;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  const preview = usePreviewDnsImport(serviceId);
  const apply = useApplyDnsImport(serviceId);
  const [text, setText] = useState('');
  const [mode, setMode] = useState<DnsImportMode>('merge');
  const [conflicts, setConflicts] = useState<DnsImportConflictChoice>('skip');
  const [textError, setTextError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [server, setServer] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const axfr = useReadDnsZoneByAxfr(serviceId);
  const plan = preview.data;

  const refusedOnLoad = usePermissionRecheck(
    opened,
    serviceId,
    (fresh) => fresh.hasService && isActionable(fresh.permissions.service_dnszone),
    onClose,
  );
  const allowed = useRightGuard(opened, canWrite && !refusedOnLoad, onClose);
  const options = useDnsImportOptions(serviceId, opened && allowed);

  // a new opening starts empty
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on opening only
  useEffect(() => {
    if (!opened) return;
    setText('');
    setMode('merge');
    setConflicts('skip');
    setTextError(null);
    setConfirming(false);
    setServer('');
    setServerError(null);
    preview.reset();
  }, [opened]);

  const edited = () => {
    preview.reset();
    setConfirming(false);
    setTextError(null);
  };

  const runPreview = async (choice: DnsImportConflictChoice = conflicts) => {
    if (text.trim() === '') return setTextError(t('validation.required'));
    if (text.length > DNS_IMPORT_MAX_TEXT) return setTextError(t('dns.import.too_large'));
    try {
      await preview.mutateAsync({ text, mode, conflicts: choice });
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors.find((f) => f.field === 'text') : undefined;
      if (field) setTextError(field.message);
      else notifyError(error);
    }
  };

  /** Reads the zone from the name server into the text, to preview like a pasted file. */
  const runAxfr = async () => {
    if (server.trim() === '') return setServerError(t('validation.required'));
    try {
      setText(await axfr.mutateAsync(server.trim()));
      edited();
      setServerError(null);
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors.find((f) => f.field === 'server') : undefined;
      if (field) setServerError(field.message);
      else notifyError(error);
    }
  };

  const runApply = async () => {
    if (!plan) return;
    // Records the file lacks go only in replace mode; a merge removes only the SPF or DMARC
    // records the customer chose to replace.
    if (plan.mode === 'replace' && plan.removed.length > 0 && !confirming) return setConfirming(true);
    try {
      const { info } = await apply.mutateAsync({ text, mode, conflicts });
      notifySuccess(info);
      onClose();
    } catch (error) {
      setConfirming(false);
      notifyError(error);
    }
  };

  const changes = plan ? plan.added.length + plan.changed.length + plan.removed.length : 0;

  return (
    <AppModal
      opened={opened && allowed}
      onClose={onClose}
      title={t('dns.import.title', { zone: zoneName })}
      size="xl"
      fullScreen={phone}
      data-testid="dns-import-modal"
    >
      <Stack gap="md">
        <Textarea
          label={t('dns.import.text')}
          description={t('dns.import.text_hint')}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            edited();
          }}
          error={textError}
          autosize
          minRows={6}
          maxRows={phone ? 10 : 14}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          data-testid="dns-import-text"
        />
        <Group gap="xs">
          <FileButton
            accept=".zone,.db,.txt,text/plain,text/dns"
            onChange={async (file) => {
              if (!file) return;
              if (file.size > DNS_IMPORT_MAX_TEXT * 4) return setTextError(t('dns.import.too_large'));
              setText(await file.text());
              edited();
            }}
          >
            {(props) => (
              <Button
                variant="default"
                leftSection={<IconFileUpload size={16} aria-hidden />}
                {...props}
                data-testid="dns-import-file"
              >
                {t('dns.import.file')}
              </Button>
            )}
          </FileButton>
        </Group>
        {options.data?.axfr ? (
          <Group align="flex-start" gap="xs" wrap={phone ? 'wrap' : 'nowrap'}>
            <TextInput
              label={t('dns.import.axfr')}
              description={t('dns.import.axfr_hint')}
              placeholder="ns1.example.net"
              value={server}
              onChange={(event) => {
                setServer(event.currentTarget.value);
                setServerError(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') void runAxfr();
              }}
              error={serverError}
              style={{ flex: 1 }}
              data-testid="dns-import-server"
            />
            <Button
              variant="default"
              mt={phone ? 0 : 42}
              leftSection={<IconServer size={16} aria-hidden />}
              onClick={runAxfr}
              loading={axfr.isPending}
              data-testid="dns-import-axfr"
            >
              {t('dns.import.axfr_read')}
            </Button>
          </Group>
        ) : null}
        <Radio.Group
          label={t('dns.import.mode')}
          value={mode}
          onChange={(value) => {
            setMode(value === 'replace' ? 'replace' : 'merge');
            edited();
          }}
        >
          <Stack gap="xs" mt="xs">
            <Radio
              value="merge"
              label={t('dns.import.merge')}
              description={t('dns.import.merge_hint')}
              data-testid="dns-import-merge"
            />
            <Radio
              value="replace"
              label={t('dns.import.replace')}
              description={t('dns.import.replace_hint')}
              data-testid="dns-import-replace"
            />
          </Stack>
        </Radio.Group>

        {plan ? <ImportPreview plan={plan} /> : null}
        {plan && plan.conflicts.length > 0 ? (
          <ImportConflicts
            plan={plan}
            choice={conflicts}
            busy={preview.isPending}
            onChoose={(choice) => {
              // The preview follows the choice, so what is applied is what was previewed.
              setConflicts(choice);
              setConfirming(false);
              void runPreview(choice);
            }}
          />
        ) : null}

        {confirming && plan ? (
          <Alert color="red" title={t('dns.import.confirm_title')} data-testid="dns-import-confirm">
            {t('dns.import.confirm_remove', { count: plan.removed.length })}
          </Alert>
        ) : null}

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={apply.isPending}>
            {t('main.cancel')}
          </Button>
          <Button
            variant={plan ? 'default' : 'filled'}
            onClick={() => runPreview()}
            loading={preview.isPending}
            disabled={apply.isPending}
            data-testid="dns-import-preview"
          >
            {t('dns.import.preview')}
          </Button>
          <Button
            color={confirming ? 'red' : undefined}
            onClick={runApply}
            loading={apply.isPending}
            disabled={!plan || changes === 0}
            data-testid="dns-import-apply"
          >
            {confirming ? t('dns.import.apply_remove') : t('dns.import.apply')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}

/** The preview's counts, then each list (the first rows of it). */
function ImportPreview({ plan }: { plan: DnsImportData }) {
  const { t } = useTranslation();
  const record = (r: { zona: string; type: string; ttl: number; priority: number; value: string }) =>
    `${r.zona || '@'} ${r.ttl ? `${r.ttl} ` : ''}${r.type} ${r.priority && (r.type === 'MX' || r.type === 'SRV') ? `${r.priority} ` : ''}${r.value}`;
  const counts = [
    ['added', 'green', t('dns.import.count_added', { count: plan.added.length })],
    ['changed', 'blue', t('dns.import.count_changed', { count: plan.changed.length })],
    ['removed', 'red', t('dns.import.count_removed', { count: plan.removed.length })],
    ['unchanged', 'gray', t('dns.import.count_unchanged', { count: plan.unchanged })],
    ['refused', 'orange', t('dns.import.count_refused', { count: plan.refused.length })],
    ['kept', 'gray', t('dns.import.count_kept', { count: plan.kept.length })],
  ] as const;
  return (
    <Stack gap="sm" data-testid="dns-import-result" aria-live="polite">
      <Group gap="xs">
        {counts.map(([key, color, label]) => (
          <Badge key={key} color={color} variant="light" data-testid={`dns-import-count-${key}`}>
            {label}
          </Badge>
        ))}
      </Group>
      {plan.added.length + plan.changed.length + plan.removed.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('dns.import.nothing')}
        </Text>
      ) : null}
      <Section title={t('dns.import.added')} total={plan.added.length} testId="dns-import-added">
        {plan.added.slice(0, SHOWN).map((r) => (
          <Line key={`${r.line}`} line={r.line} text={record(r)} />
        ))}
      </Section>
      <Section title={t('dns.import.changed')} total={plan.changed.length} testId="dns-import-changed">
        {plan.changed.slice(0, SHOWN).map((r) => (
          <Line
            key={`${r.line}`}
            line={r.line}
            text={record(r)}
            note={t('dns.import.before', { ttl: r.before.ttl || t('dns.ttl_0'), value: r.before.value })}
          />
        ))}
      </Section>
      <Section title={t('dns.import.removed')} total={plan.removed.length} testId="dns-import-removed">
        {plan.removed.slice(0, SHOWN).map((r) => (
          <Line key={r.id} text={record(r)} />
        ))}
      </Section>
      <Section title={t('dns.import.refused')} total={plan.refused.length} testId="dns-import-refused">
        {plan.refused.slice(0, SHOWN).map((r) => (
          <Line key={`${r.line}`} line={r.line} text={r.text} note={r.reason} />
        ))}
      </Section>
      <Section title={t('dns.import.kept')} total={plan.kept.length} testId="dns-import-kept">
        {plan.kept.slice(0, SHOWN).map((r) => (
          <Line key={`${r.line}`} line={r.line} text={r.text} note={r.reason} />
        ))}
      </Section>
    </Stack>
  );
}

/**
 * The file's SPF and DMARC records beside a different one the zone keeps at that name: a second
 * would make receivers fail SPF or ignore DMARC, so the customer chooses which one stays.
 */
function ImportConflicts({
  plan,
  choice,
  busy,
  onChoose,
}: {
  plan: DnsImportData;
  choice: DnsImportConflictChoice;
  busy: boolean;
  onChoose: (choice: DnsImportConflictChoice) => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" title={t('dns.import.conflicts_title')} data-testid="dns-import-conflicts">
      <Stack gap="sm">
        <Text size="sm">{t('dns.import.conflicts_text')}</Text>
        <Table verticalSpacing={4} fz="sm">
          <Table.Tbody>
            {plan.conflicts.slice(0, SHOWN).map((r) => (
              <Line
                key={`${r.line}`}
                line={r.line}
                text={`${r.zona || '@'} TXT ${r.value}`}
                note={t('dns.import.conflict_existing', {
                  kind: isSpfText(r.value) ? 'SPF' : 'DMARC',
                  value: r.existing.value,
                })}
              />
            ))}
          </Table.Tbody>
        </Table>
        <Radio.Group
          value={choice}
          onChange={(value) => onChoose(value === 'replace' ? 'replace' : 'skip')}
          aria-label={t('dns.import.conflicts_title')}
        >
          <Stack gap="xs">
            <Radio value="skip" label={t('dns.import.conflict_skip')} disabled={busy} data-testid="dns-import-skip" />
            <Radio
              value="replace"
              label={t('dns.import.conflict_replace')}
              disabled={busy}
              data-testid="dns-import-conflict-replace"
            />
          </Stack>
        </Radio.Group>
      </Stack>
    </Alert>
  );
}

function Section({
  title,
  total,
  testId,
  children,
}: {
  title: string;
  total: number;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (total === 0) return null;
  return (
    <Stack gap={4} data-testid={testId}>
      <Title order={4} size="h6">
        {title} ({total})
      </Title>
      <ScrollArea.Autosize mah={220} type="auto">
        <Table striped verticalSpacing={4} fz="sm">
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {total > SHOWN ? (
        <Text size="xs" c="dimmed">
          {t('dns.import.more', { count: total - SHOWN })}
        </Text>
      ) : null}
    </Stack>
  );
}

function Line({ line, text, note }: { line?: number; text: string; note?: string }) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td w={70} c="dimmed" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
        {line ? t('dns.import.line', { line }) : ''}
      </Table.Td>
      <Table.Td style={{ wordBreak: 'break-all' }}>
        <Code>{text.length > 160 ? `${text.slice(0, 160)}…` : text}</Code>
        {note ? (
          <Text size="xs" c="dimmed" mt={2}>
            {note}
          </Text>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}
