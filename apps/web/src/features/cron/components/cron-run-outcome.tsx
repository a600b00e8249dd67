import { Badge } from '@mantine/core';
import type { CronRun } from '@panel247/contract/cron';
import { useTranslation } from '../../../lib/use-translation';
import { OUTCOME_COLORS } from '../lib/cron-runs';

/** How a run ended (or that it runs), with its exit status once it has one. */
export function CronRunOutcome({ run }: { run: CronRun }) {
  const { t } = useTranslation();
  const outcome = t(`cron.outcome.${run.outcome}`);
  return (
    <Badge
      variant="light"
      color={OUTCOME_COLORS[run.outcome]}
      tt="none"
      data-testid="cron-outcome"
      data-outcome={run.outcome}
    >
      {run.exitCode === null ? outcome : t('cron.outcome_code', { outcome, code: run.exitCode })}
    </Badge>
  );
}
