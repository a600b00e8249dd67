import { Anchor, Button, Group, Progress, Stack, Text } from '@mantine/core';
import type { InstallJob } from '@panel247/contract/installer';
import { IconCircleCheck, IconExternalLink } from '@tabler/icons-react';
import { folderLabel } from '../../../lib/service-folder';
import { useTranslation } from '../../../lib/use-translation';

/** A running install: the job's state and a progress bar the status text repeats for screen readers. */
export function InstallerProgress({ job, appName }: { job: InstallJob; appName: string }) {
  const { t } = useTranslation();
  const progress = Math.max(0, Math.min(100, Math.round(job.progress)));
  return (
    <Stack gap="xs" tabIndex={-1} style={{ outline: 'none' }} data-testid="installer-job">
      <Text size="sm" role="status" aria-live="polite" data-testid="installer-job-status">
        {job.status === 'queued'
          ? t('installer.job_queued', { name: appName })
          : t('installer.job_running', { name: appName, progress })}
      </Text>
      <Progress
        value={progress}
        size="lg"
        striped
        animated
        aria-label={t('installer.progress_label', { name: appName })}
        data-testid="installer-progress"
      />
    </Stack>
  );
}

/** Only http(s) addresses become links (the URL comes from the server, but a link runs what it holds). */
function safeUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A finished install: where the application answers and where its files are. */
export function InstallerSuccess({ job, appName, onClose }: { job: InstallJob; appName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const url = job.result ? safeUrl(job.result.url) : null;
  return (
    <Stack gap="md" data-testid="installer-success">
      <Group gap="sm" wrap="nowrap">
        <IconCircleCheck size={28} color="var(--mantine-color-green-filled)" aria-hidden />
        <Text fw={600} role="status">
          {t('installer.done', { name: appName })}
        </Text>
      </Group>
      {url ? (
        <Text size="sm">
          {t('installer.done_url')}{' '}
          <Anchor href={url} target="_blank" rel="noopener noreferrer" data-testid="installer-success-url">
            {url}
            <IconExternalLink size={14} aria-hidden style={{ marginInlineStart: 4, verticalAlign: 'middle' }} />
          </Anchor>
        </Text>
      ) : null}
      {job.result ? (
        <Text size="sm">
          {t('installer.done_folder')}{' '}
          <Text component="span" ff="monospace" data-testid="installer-success-folder">
            {folderLabel(job.result.folder)}
          </Text>
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={onClose} data-autofocus data-testid="installer-close">
          {t('main.close')}
        </Button>
      </Group>
    </Stack>
  );
}
