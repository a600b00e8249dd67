import { Button, Group, Text } from '@mantine/core';
import { isActionable, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { CronTask } from '@panel247/contract/cron';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconPlus } from '@tabler/icons-react';
import { useId } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { lazyDialog } from '../../../components/lazy-dialog';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListPagination } from '../../../components/list-pagination';
import { ListSkeleton } from '../../../components/list-skeleton';
import { NotFoundView } from '../../../components/not-found-view';
import { ApiError } from '../../../lib/api-client';
import { notifyCall, notifyError, notifySuccess } from '../../../lib/notify';
import { useClientPage } from '../../../lib/use-client-page';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteCronTask } from '../api/delete-cron-task';
import { useCronTasks } from '../api/list-cron-tasks';
import { useRunCronTask } from '../api/run-cron-task';
import { taskLimitReached } from '../lib/task-limit';
import { CronPlanHint } from './cron-plan-hint';
import { CronTable } from './cron-table';

// The dialogs load when first opened (see lazyDialog): the view's first visit shows none of them.
const CronTaskModal = lazyDialog(() => import('./cron-task-modal').then((m) => m.CronTaskModal), { task: null });
const CronRunsModal = lazyDialog(() => import('./cron-runs-modal').then((m) => m.CronRunsModal), { task: null });

/**
 * The scheduled tasks of a service: the list with each task's schedule in words and its last run,
 * and for users with the cron right, new, edit, run now and delete. Its runs are for all who see it.
 */
export function CronView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  // the session's rights change live (permissions.changed): read at each render
  const canWrite = isActionable(set.permissions.service_cron);
  usePageTitle(`${t('menu.cron')} · ${set.reference}`);

  const list = useCronTasks(serviceId);
  // a service that is not there (or no longer the user's) answers 404
  const missing = list.error instanceof ApiError && list.error.status === 404;
  useErrorToast(list.error, !missing);
  const tasks = list.data?.tasks ?? [];
  const full = list.data ? taskLimitReached(tasks.length, list.data.limits.maxTasks) : false;
  const { page, setPage, pageRows } = useClientPage(tasks, LIST_PAGE_SIZE);
  const limitHintId = useId();

  const [editing, setEditing, closeEdit] = useDialog<CronTask | 'new' | null>(null);
  const [runsOf, setRunsOf, closeRuns] = useDialog<CronTask | null>(null);
  const [deleting, setDeleting, closeDelete] = useDialog<CronTask | null>(null);
  const deleteShown = useRightGuard(deleting !== null, canWrite, closeDelete);

  const remove = useDeleteCronTask(serviceId);
  const run = useRunCronTask(serviceId);

  const runDelete = async () => {
    if (deleting) await notifyCall(async () => (await remove.mutateAsync(deleting.id)).info, closeDelete);
  };
  const runNow = (task: CronTask) => {
    run.mutate(task.id, {
      onSuccess: notifySuccess,
      onError: notifyError,
    });
  };

  if (missing) return <NotFoundView />;

  return (
    <ListPage testId="cron-view" title={set.reference}>
      <ListCard
        title={t('cron.list_title')}
        subtitle={list.data ? <CronPlanHint data={list.data} /> : null}
        actions={
          canWrite ? (
            <Group gap="sm" wrap="wrap" justify="flex-end">
              {full ? (
                <Text size="sm" c="dimmed" id={limitHintId} data-testid="cron-limit-hint">
                  {t('cron.limit_reached', { limit: list.data?.limits.maxTasks })}
                </Text>
              ) : null}
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => setEditing('new')}
                disabled={!list.data || full}
                aria-describedby={full ? limitHintId : undefined}
                data-testid="cron-create"
              >
                {t('cron.create')}
              </Button>
            </Group>
          ) : null
        }
      >
        {list.isPending ? (
          <ListSkeleton testId="cron-skeleton" />
        ) : (
          <CronTable
            tasks={pageRows}
            canWrite={canWrite}
            emptyText={list.isError ? t('cron.load_error') : t('cron.empty')}
            busy={list.isFetching}
            runPending={run.isPending ? (run.variables ?? null) : null}
            actions={{ onEdit: setEditing, onRun: runNow, onRuns: setRunsOf, onDelete: setDeleting }}
          />
        )}
        <ListPagination
          page={page}
          pageSize={LIST_PAGE_SIZE}
          total={tasks.length}
          onChange={setPage}
          testId="cron-pagination"
        />
      </ListCard>

      <CronTaskModal
        task={editing}
        onClose={closeEdit}
        serviceId={serviceId}
        domain={set.referencePunycode}
        minIntervalMinutes={list.data?.limits.minIntervalMinutes ?? 1}
        allowed={canWrite && (editing !== 'new' || !full)}
      />
      <CronRunsModal task={runsOf} onClose={closeRuns} serviceId={serviceId} />
      <ConfirmModal
        opened={deleting !== null && deleteShown}
        title={t('cron.delete_title')}
        message={t('cron.delete_confirm', { target: deleting?.target ?? '' })}
        confirmLabel={t('cron.delete')}
        busy={remove.isPending}
        onConfirm={runDelete}
        onClose={closeDelete}
        testId="cron-delete-modal"
      />
    </ListPage>
  );
}
