import { Button, Text } from '@mantine/core';
import type { ConsolePlan } from '@panel247/contract/console';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { notifyCall } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useTranslation } from '../../../lib/use-translation';
import { usePlans } from '../api/list-plans';
import { useRemovePlan } from '../api/remove-plan';
import type { PlanLimit } from '../lib/plan-form';
import { limitText } from '../lib/plan-limits';
import { useConsoleTitle } from '../lib/use-console-title';
import { PlanModal } from './plan-modal';

/** The limits the table shows; the dialog has every one. */
const SHOWN_LIMITS: readonly PlanLimit[] = ['webSpaceMb', 'sites', 'mailboxes', 'databases', 'trafficMb'];

/** What the plan dialog is open for: a new plan, a plan to edit, or nothing. */
type Editing = { plan: ConsolePlan | null } | null;
const CLOSED: Editing = null;
const NO_PLAN = null as ConsolePlan | null;

/** The provider's plans: their limits, how many services each has, and their dialogs. */
export function PlansView() {
  const { t, i18n } = useTranslation();
  useConsoleTitle(t('console.nav.plans'));
  const plans = usePlans();
  useErrorToast(plans.error);
  const remove = useRemovePlan();
  const [editing, setEditing, closeEditing] = useDialog(CLOSED);
  const [removing, setRemoving, closeRemove] = useDialog(NO_PLAN);
  const unlimited = t('console.plans.unlimited');

  const columns: DataTableColumn<ConsolePlan>[] = [
    {
      accessor: 'name',
      title: t('console.plans.name'),
      render: (plan) => (
        <Text size="sm" fw={500}>
          {plan.name}
        </Text>
      ),
    },
    { accessor: 'services', title: t('console.plans.services') },
    ...SHOWN_LIMITS.map(
      (limit): DataTableColumn<ConsolePlan> => ({
        accessor: limit,
        title: t(`console.plans.limit.${limit}`),
        render: (plan) => limitText(plan, limit, i18n.language, unlimited),
      }),
    ),
    {
      accessor: 'phpVersions',
      title: t('console.plans.php_versions'),
      render: (plan) => (plan.phpVersions.length ? plan.phpVersions.join(', ') : t('console.plans.php_all')),
    },
    rowActionsColumn<ConsolePlan>(t('lists.actions'), (plan) => [
      {
        testId: 'plan-edit',
        label: t('console.plans.edit_of', { name: plan.name }),
        icon: <IconEdit size={18} aria-hidden />,
        onClick: () => setEditing({ plan }),
      },
      {
        testId: 'plan-remove',
        label: t('console.plans.remove_of', { name: plan.name }),
        icon: <IconTrash size={18} aria-hidden />,
        color: 'red',
        onClick: () => setRemoving(plan),
      },
    ]),
  ];

  return (
    <ListPage testId="console-plans-view" title={t('console.plans.title')}>
      <ListCard
        title={t('console.plans.list_title')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({ plan: null })}
            data-testid="plan-create"
          >
            {t('console.plans.create')}
          </Button>
        }
      >
        {plans.isPending ? (
          <ListSkeleton rows={3} height={32} testId="console-plans-skeleton" />
        ) : (
          <ListTable
            testId="console-plans"
            busy={plans.isFetching}
            records={plans.data ?? []}
            columns={columns}
            emptyText={plans.isError ? t('console.plans.load_error') : t('console.plans.empty')}
            idAccessor="name"
            rowAttributes={(plan) => ({ 'data-name': plan.name })}
          />
        )}
      </ListCard>

      <PlanModal opened={editing !== null} plan={editing?.plan ?? null} onClose={closeEditing} />
      <ConfirmModal
        opened={removing !== null}
        title={t('console.plans.remove_title')}
        message={t('console.plans.remove_confirm', { name: removing?.name ?? '' })}
        confirmLabel={t('console.plans.remove')}
        busy={remove.isPending}
        onConfirm={() => {
          if (removing) void notifyCall(() => remove.mutateAsync(removing.name), closeRemove);
        }}
        onClose={closeRemove}
        testId="plan-remove-modal"
      />
    </ListPage>
  );
}
