import type { CronTask } from '@panel247/contract/cron';
import { AppModal } from '../../../components/app-modal';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { CronTaskForm } from './cron-task-form';

/**
 * A new scheduled task (`task` 'new') or one to change; closed while `task` is null. Needs the
 * cron right (and, for a new one, room in the plan): without it, 'no permission' and it closes.
 */
export function CronTaskModal({
  task,
  onClose,
  serviceId,
  domain,
  minIntervalMinutes,
  allowed,
}: {
  task: CronTask | 'new' | null;
  onClose: () => void;
  serviceId: number;
  /** The service's domain, for the example address of a URL task. */
  domain: string;
  minIntervalMinutes: number;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(task !== null, allowed, onClose);
  return (
    <AppModal
      opened={task !== null && shown}
      onClose={onClose}
      title={task === 'new' ? t('cron.create_title') : t('cron.edit_title')}
      size="lg"
      data-testid="cron-task-modal"
    >
      {task !== null ? (
        <CronTaskForm
          key={task === 'new' ? 'new' : task.id}
          task={task === 'new' ? null : task}
          serviceId={serviceId}
          domain={domain}
          minIntervalMinutes={minIntervalMinutes}
          onClose={onClose}
        />
      ) : null}
    </AppModal>
  );
}
