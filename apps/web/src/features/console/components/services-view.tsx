import { Button } from '@mantine/core';
import type { ConsoleService } from '@panel247/contract/console';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { SortSelect } from '../../../components/sort-select';
import type { SortChoice } from '../../../lib/list-sort';
import { notifyError, notifyErrorMessage, notifySuccess } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useChangeService } from '../api/change-service';
import { SERVICE_SORTS, type ServiceSort, useServices } from '../api/list-services';
import { useTerminateService } from '../api/terminate-service';
import { terminationOutcome } from '../lib/termination-outcome';
import { useConsoleTitle } from '../lib/use-console-title';
import { AccountCreateModal } from './account-create-modal';
import { ChangePlanModal } from './change-plan-modal';
import { ServicesTable } from './services-table';
import { SuspendModal } from './suspend-modal';

const NO_SERVICE = null as ConsoleService | null;

/** Every hosting service of every account, paged on the server, and what staff do to one. */
export function ServicesView() {
  const { t, i18n } = useTranslation();
  useConsoleTitle(t('console.nav.services'));
  const [sort, setSort] = useState<SortChoice<ServiceSort>>({ sort: 'domain', order: 'asc' });
  const { text, setText, filter, page, setPage } = useServerPage([sort.sort, sort.order]);
  const list = useServices({ page, filter, ...sort });
  useErrorToast(list.error);
  const services = list.data?.services ?? [];
  const total = list.data?.total ?? services.length;
  useStepBack(total, list.data !== undefined, page, setPage);

  const [creating, setCreating, closeCreate] = useDialog(false);
  const [suspending, setSuspending, closeSuspend] = useDialog(NO_SERVICE);
  const [planOf, setPlanOf, closePlan] = useDialog(NO_SERVICE);
  const [terminating, setTerminating, closeTerminate] = useDialog(NO_SERVICE);
  const change = useChangeService();
  const terminate = useTerminateService();

  const unsuspend = (service: ConsoleService) =>
    change.mutate(
      { kind: 'unsuspend', domain: service.domain },
      { onSuccess: ({ info }) => notifySuccess(info), onError: notifyError },
    );

  const runTerminate = async () => {
    if (!terminating) return;
    try {
      const { termination } = await terminate.mutateAsync(terminating);
      const outcome = terminationOutcome(termination, i18n.language);
      if (outcome.failed) notifyErrorMessage(t(outcome.key, outcome.values));
      else notifySuccess([t(outcome.key, outcome.values)]);
      closeTerminate();
    } catch (error) {
      notifyError(error);
    }
  };

  const emptyText = list.isError
    ? t('console.services.load_error')
    : filter
      ? t('lists.no_results')
      : t('console.services.empty');
  const unsuspending = change.isPending && change.variables?.kind === 'unsuspend' ? change.variables.domain : null;

  return (
    <ListPage testId="console-services-view" title={t('console.services.title')}>
      <ListCard
        title={t('console.services.list_title')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
            data-testid="account-create"
          >
            {t('console.account.create')}
          </Button>
        }
      >
        <ListBody
          testId="console-services"
          filter={{
            label: t('lists.filter'),
            placeholder: t('console.services.filter_placeholder'),
            value: text,
            onChange: setText,
          }}
          selects={
            <SortSelect
              keys={SERVICE_SORTS}
              labelOf={(key) => t(`console.services.${key}`)}
              value={sort}
              onChange={setSort}
              testId="console-services-sort"
            />
          }
          pagedOnServer
          loading={list.isPending}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
        >
          <ServicesTable
            services={services}
            busy={list.isFetching}
            emptyText={emptyText}
            pendingDomain={unsuspending}
            actions={{
              onSuspend: setSuspending,
              onUnsuspend: unsuspend,
              onPlan: setPlanOf,
              onTerminate: setTerminating,
            }}
          />
        </ListBody>
      </ListCard>

      <AccountCreateModal opened={creating} onClose={closeCreate} />
      <SuspendModal service={suspending} onClose={closeSuspend} />
      <ChangePlanModal service={planOf} onClose={closePlan} />
      <ConfirmModal
        opened={terminating !== null}
        title={t('console.terminate.title')}
        message={t('console.terminate.confirm', { domain: terminating?.domain ?? '' })}
        confirmLabel={t('console.services.terminate')}
        busy={terminate.isPending}
        onConfirm={() => void runTerminate()}
        onClose={closeTerminate}
        testId="terminate-modal"
      />
    </ListPage>
  );
}
