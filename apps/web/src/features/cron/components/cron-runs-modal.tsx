import { Accordion, Button, Code, Group, Stack, Text } from '@mantine/core';
import { CRON_RUNS_KEPT, type CronRun, type CronTask } from '@panel247/contract/cron';
import { AppModal } from '../../../components/app-modal';
import { ListSkeleton } from '../../../components/list-skeleton';
import { formatEpoch } from '../../../lib/dates';
import { translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useCronRuns } from '../api/list-cron-runs';
import { formatDuration, runSeconds } from '../lib/cron-runs';
import { CronRunOutcome } from './cron-run-outcome';

/** One run: when, how long, what started it and how it ended; its output opens beneath. */
function RunItem({ run }: { run: CronRun }) {
  const { t, i18n } = useTranslation();
  const started = formatEpoch(run.startedAt, i18n.language, 'second');
  const seconds = runSeconds(run);
  return (
    <Accordion.Item value={String(run.id)} data-testid="cron-run-item" data-run={run.id}>
      <Accordion.Control>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={500}>
            <time dateTime={new Date(run.startedAt * 1000).toISOString()}>{started}</time>
          </Text>
          <CronRunOutcome run={run} />
          <Text size="sm" c="dimmed">
            {t(`cron.trigger.${run.trigger}`)}
          </Text>
          {seconds === null ? null : (
            <Text size="sm" c="dimmed" data-testid="cron-run-duration">
              {t('cron.duration', { duration: formatDuration(seconds, i18n.language) })}
            </Text>
          )}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        {run.output ? (
          <Code
            block
            // a long output scrolls inside its box, which the keyboard can reach to scroll it
            tabIndex={0}
            aria-label={t('cron.output', { date: started })}
            data-testid="cron-run-output"
            style={{ maxHeight: '50vh', overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {run.output}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            {t('cron.no_output')}
          </Text>
        )}
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** A task's last runs, newest first, each with its output; read each time it opens. */
export function CronRunsModal({
  task,
  onClose,
  serviceId,
}: {
  task: CronTask | null;
  onClose: () => void;
  serviceId: number;
}) {
  const { t } = useTranslation();
  const runs = useCronRuns(serviceId, task?.id ?? null);
  return (
    <AppModal
      opened={task !== null}
      onClose={onClose}
      title={t('cron.runs_title', { target: task?.target ?? '' })}
      size="xl"
      data-testid="cron-runs-modal"
    >
      <Stack gap="md">
        {runs.isPending ? (
          <ListSkeleton rows={3} testId="cron-runs-skeleton" />
        ) : runs.isError ? (
          <Text c="red.8" size="sm" data-testid="cron-runs-error">
            {translateError(runs.error)}
          </Text>
        ) : runs.data.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="cron-runs-empty">
            {t('cron.runs_empty')}
          </Text>
        ) : (
          <>
            <Accordion multiple variant="separated" chevronPosition="left" data-testid="cron-runs-list">
              {runs.data.map((run) => (
                <RunItem key={run.id} run={run} />
              ))}
            </Accordion>
            <Text size="xs" c="dimmed">
              {t('cron.runs_kept', { kept: CRON_RUNS_KEPT })}
            </Text>
          </>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            {t('main.close')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
