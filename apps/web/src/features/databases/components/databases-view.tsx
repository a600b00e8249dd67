import { Button, Group, Text } from '@mantine/core';
import { isActionable, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { DDBB_API } from '@panel247/contract/routes';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { databaseQueriesKey, useDatabases } from '../../../api/list-databases';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { PasswordChangeModal } from '../../../components/password-change-modal';
import { PasswordRevealModal } from '../../../components/password-reveal-modal';
import { ServiceApplyingAlert } from '../../../components/service-applying-alert';
import { notifyCall, notifyError } from '../../../lib/notify';
import { openSignon } from '../../../lib/open-signon';
import { useApplyNow } from '../../../lib/use-apply-now';
import { useClientPage } from '../../../lib/use-client-page';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useChangeDatabasePassword } from '../api/change-database-password';
import { useDeleteDatabase } from '../api/delete-database';
import { useDownloadDatabaseDump } from '../api/download-database-dump';
import { useDatabase } from '../api/get-database';
import { usePhpMyAdminLogin } from '../api/get-phpmyadmin-login';
import { useToggleExternalAccess } from '../api/toggle-external-access';
import { filterDatabases, limitReached, sortDatabases } from '../lib/databases-rows';
import { DatabaseCreateModal } from './databases-create-modal';
import { DatabasesTable } from './databases-table';

/** The databases of a service and their dialogs (spec section 2). */
export function DatabasesView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const canWrite = isActionable(set.permissions.service_ddbb);
  usePageTitle(`${t('menu.databases')} · ${set.reference}`);

  const list = useDatabases(serviceId);
  const applyChanges = useApplyNow(DDBB_API.apply(serviceId), databaseQueriesKey(serviceId));
  useErrorToast(list.error);

  const all = list.data?.ddbb ?? [];
  const limit = list.data?.limit ?? null;
  const full = list.data ? limitReached(all.length, limit) : false;
  const [text, setText] = useState('');
  const databases = useMemo(() => filterDatabases(sortDatabases(list.data?.ddbb ?? []), text), [list.data, text]);
  const { page, setPage, pageRows } = useClientPage(databases, LIST_PAGE_SIZE);

  const [creating, setCreating, closeCreate] = useDialog(false);
  const [password, setPassword, closePassword] = useDialog<HostedDatabase | null>(null);
  const [revealing, setRevealing, closeReveal] = useDialog<HostedDatabase | null>(null);
  const [deleting, setDeleting, closeDelete] = useDialog<HostedDatabase | null>(null);
  const [toggling, setToggling, closeToggle] = useDialog<HostedDatabase | null>(null);

  const changePassword = useChangeDatabasePassword(serviceId);
  const remove = useDeleteDatabase(serviceId);
  const toggle = useToggleExternalAccess(serviceId);
  const dump = useDownloadDatabaseDump(serviceId);
  const login = usePhpMyAdminLogin(serviceId);
  // "Show password" stays listed for readers (spec section 6), but the password opens the database
  // for writing: without the database right the dialog says 'no permission' and closes, as the
  // server would answer, and nothing is asked for.
  const revealShown = useRightGuard(revealing !== null, canWrite, closeReveal);
  const reveal = useDatabase(serviceId, revealShown ? (revealing?.id ?? null) : null);
  const deleteShown = useRightGuard(deleting !== null, canWrite, closeDelete);
  const toggleShown = useRightGuard(toggling !== null, canWrite, closeToggle);

  const runDelete = async () => {
    if (deleting) await notifyCall(() => remove.mutateAsync(deleting.id), closeDelete);
  };

  const runToggle = async () => {
    if (toggling) await notifyCall(async () => (await toggle.mutateAsync(toggling.id)).info, closeToggle);
  };

  const downloadDump = (database: HostedDatabase) => {
    dump.mutate(database.id, { onError: notifyError });
  };

  const emptyText = list.isError ? t('ddbb.load_error') : text.trim() ? t('ddbb.no_results') : t('ddbb.empty');

  return (
    <ListPage testId="ddbb-view" title={set.reference}>
      <ServiceApplyingAlert
        area="databases"
        serviceId={serviceId}
        applying={list.data?.applying}
        queryKey={databaseQueriesKey(serviceId)}
        words="ddbb.applying"
        retry={canWrite ? applyChanges : undefined}
      />
      <ListCard
        title={t('ddbb.list_title')}
        subtitle={
          list.data ? (
            <Text size="sm" c="dimmed" data-testid="ddbb-count">
              {limit === null
                ? t('ddbb.usage_unlimited', { used: all.length })
                : t('ddbb.usage', { used: all.length, limit })}
            </Text>
          ) : null
        }
        actions={
          canWrite ? (
            <Group gap="sm" wrap="wrap" justify="flex-end">
              {full ? (
                <Text size="sm" c="dimmed" id="ddbb-limit-hint" data-testid="ddbb-limit-hint">
                  {t('ddbb.limit_reached', { limit })}
                </Text>
              ) : null}
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => setCreating(true)}
                disabled={!list.data || full}
                aria-describedby={full ? 'ddbb-limit-hint' : undefined}
                data-testid="ddbb-create"
              >
                {t('ddbb.create')}
              </Button>
            </Group>
          ) : null
        }
      >
        <ListBody
          testId="ddbb"
          filter={{
            label: t('ddbb.filter'),
            placeholder: t('ddbb.filter_placeholder'),
            value: text,
            onChange: setText,
          }}
          loading={list.isPending}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total: databases.length, onChange: setPage }}
        >
          <DatabasesTable
            databases={pageRows}
            canWrite={canWrite}
            emptyText={emptyText}
            busy={list.isFetching}
            pending={{
              login: login.isPending ? (login.variables ?? null) : null,
              dump: dump.isPending ? (dump.variables ?? null) : null,
            }}
            actions={{
              onShowPassword: setRevealing,
              onPhpMyAdmin: (database) => openSignon(login.mutate, database.id),
              onDump: downloadDump,
              onPassword: setPassword,
              onToggleExternal: setToggling,
              onDelete: setDeleting,
            }}
          />
        </ListBody>
      </ListCard>

      <DatabaseCreateModal opened={creating} onClose={closeCreate} serviceId={serviceId} allowed={canWrite && !full} />
      <PasswordChangeModal
        subject={password ? { key: password.id, kind: t('ddbb.user'), name: password.user } : null}
        allowed={canWrite}
        onClose={closePassword}
        onSubmit={async (value) => {
          if (!password) return undefined;
          return (await changePassword.mutateAsync({ databaseId: password.id, password: value })).info;
        }}
        testIdPrefix="ddbb"
      />
      <PasswordRevealModal
        opened={revealing !== null && revealShown}
        onClose={closeReveal}
        kind={t('ddbb.user')}
        name={revealing?.user ?? ''}
        query={reveal}
        testId="ddbb-reveal-modal"
      />
      <ConfirmModal
        opened={toggling !== null && toggleShown}
        title={t('ddbb.external_title')}
        message={
          toggling?.externalAccess
            ? t('ddbb.external_disable_confirm', { name: toggling.bbdd })
            : t('ddbb.external_enable_confirm', { name: toggling?.bbdd ?? '' })
        }
        confirmLabel={toggling?.externalAccess ? t('ddbb.external_disable') : t('ddbb.external_enable')}
        color={toggling?.externalAccess ? null : 'orange.9'}
        busy={toggle.isPending}
        onConfirm={runToggle}
        onClose={closeToggle}
        testId="ddbb-external-modal"
      />
      <ConfirmModal
        opened={deleting !== null && deleteShown}
        title={t('ddbb.delete_title')}
        message={t('ddbb.delete_confirm', { name: deleting?.bbdd ?? '' })}
        confirmLabel={t('ddbb.delete')}
        busy={remove.isPending}
        onConfirm={runDelete}
        onClose={closeDelete}
        testId="ddbb-delete-modal"
      />
    </ListPage>
  );
}
