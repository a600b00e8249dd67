import { Button, Group, NativeSelect } from '@mantine/core';
import { isVisible, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { MAIL_API } from '@panel247/contract/routes';
import { IconPlugConnected, IconPlus, IconShieldCheck } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { lazyDialog } from '../../../components/lazy-dialog';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { ServiceApplyingAlert } from '../../../components/service-applying-alert';
import { notifyCall } from '../../../lib/notify';
import { openSignon } from '../../../lib/open-signon';
import { paths } from '../../../lib/resource-paths';
import { useApplyNow } from '../../../lib/use-apply-now';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteAlias } from '../api/delete-alias';
import { useDeleteMailbox } from '../api/delete-mailbox';
import { useWebmailLogin } from '../api/get-webmail-login';
import { FIRST_MAIL_PAGE, mailPagesQueryKey } from '../api/list-mail';
import { useMailPage } from '../api/use-mail-page';
import { canCreate, mailRights } from '../lib/mail-rights';
import { type AccountRow, type MailRow, type MailTypeFilter, mailRows } from '../lib/mail-rows';
import { MailAuthCard } from './mail-auth-card';
import { MailTable } from './mail-table';

// The dialogs load when first opened (see lazyDialog): the view's first visit shows none of them.
const MailCreateModal = lazyDialog(() => import('./mail-create-modal').then((m) => m.MailCreateModal), {
  opened: false,
});
const ConnectionModal = lazyDialog(() => import('./connection-modal').then((m) => m.ConnectionModal), {
  opened: false,
});
const AliasEditModal = lazyDialog(() => import('./alias-edit-modal').then((m) => m.AliasEditModal), { row: null });
const PasswordModal = lazyDialog(() => import('./password-modal').then((m) => m.PasswordModal), { row: null });
const RulesModal = lazyDialog(() => import('./rules-modal').then((m) => m.RulesModal), { row: null });
const QuotaModal = lazyDialog(() => import('./quota-modal').then((m) => m.QuotaModal), { row: null });

type AliasRow = Extract<MailRow, { type: 'alias' }>;

const TYPE_FILTERS: MailTypeFilter[] = ['all', 'alias', 'account'];

/** The mail of a service: accounts and aliases in one list, and their dialogs (spec section 2). */
export function MailView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const domain = set.referencePunycode;
  const rights = mailRights(set.permissions);
  usePageTitle(`${t('menu.mail')} · ${set.reference}`);

  const [type, setType] = useState<MailTypeFilter>(FIRST_MAIL_PAGE.type);
  const { text, setText, filter, page, setPage } = useServerPage([type, serviceId]);
  const list = useMailPage(serviceId, { page, type, filter });
  const failed = list.isError;
  useErrorToast(list.error);
  const rows = useMemo(() => mailRows(list.data?.mail ?? [], domain), [list.data, domain]);
  const total = list.data?.total ?? 0;
  useStepBack(total, list.data !== undefined, page, setPage);

  const [creating, setCreating, closeCreate] = useDialog(false);
  const [connection, setConnection, closeConnection] = useDialog(false);
  const [editing, setEditing, closeEdit] = useDialog<AliasRow | null>(null);
  const [password, setPassword, closePassword] = useDialog<AccountRow | null>(null);
  const [rulesRow, setRulesRow, closeRules] = useDialog<AccountRow | null>(null);
  const [quotaRow, setQuotaRow, closeQuota] = useDialog<AccountRow | null>(null);
  const [deleting, setDeleting, closeDelete] = useDialog<MailRow | null>(null);

  const removeMailbox = useDeleteMailbox(serviceId);
  const removeAlias = useDeleteAlias(serviceId);
  const webmail = useWebmailLogin(serviceId);
  const applyMail = useApplyNow(MAIL_API.apply(serviceId), mailPagesQueryKey(serviceId));

  const deleteAllowed = deleting ? (deleting.type === 'account' ? rights.account : rights.alias) : true;
  const deleteShown = useRightGuard(deleting !== null, deleteAllowed, closeDelete);

  const runDelete = async () => {
    if (!deleting) return;
    await notifyCall(
      () =>
        deleting.type === 'account'
          ? removeMailbox.mutateAsync(deleting.mailbox.id)
          : removeAlias.mutateAsync(deleting.alias.id),
      closeDelete,
    );
  };

  const filtered = type !== 'all' || filter !== '';
  const emptyText = failed ? t('mail.load_error') : filtered ? t('mail.no_results') : t('mail.empty');

  return (
    <ListPage testId="mail-view" title={set.reference}>
      <ServiceApplyingAlert
        area="mail"
        serviceId={serviceId}
        applying={list.data?.applying}
        queryKey={mailPagesQueryKey(serviceId)}
        words="mail.applying"
        retry={rights.account ? applyMail : undefined}
      />
      <ListCard
        title={t('mail.list_title')}
        actions={
          <Group gap="xs">
            {isVisible(set.permissions.servicemail_spam) ? (
              <Button
                component={Link}
                to={paths.mailSpam(serviceId)}
                variant="default"
                leftSection={<IconShieldCheck size={16} aria-hidden />}
                data-testid="mail-spam-link"
              >
                {t('menu.mail_spam')}
              </Button>
            ) : null}
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} aria-hidden />}
              onClick={() => setConnection(true)}
              data-testid="mail-connection"
            >
              {t('mail.connection')}
            </Button>
            {canCreate(rights) ? (
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => setCreating(true)}
                data-testid="mail-create"
              >
                {t('mail.create')}
              </Button>
            ) : null}
          </Group>
        }
      >
        <ListBody
          testId="mail"
          filter={{
            label: t('mail.filter'),
            placeholder: t('mail.filter_placeholder'),
            value: text,
            onChange: setText,
          }}
          selects={
            <NativeSelect
              label={t('mail.filter_type')}
              data={TYPE_FILTERS.map((value) => ({ value, label: t(`mail.type_${value}`) }))}
              value={type}
              // the options are the contract's own types; the page starts over with the type
              onChange={(event) => setType(event.currentTarget.value as MailTypeFilter)}
              data-testid="mail-type-filter"
              w={180}
            />
          }
          pagedOnServer
          loading={list.isPending}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
        >
          <MailTable
            rows={rows}
            rights={rights}
            emptyText={emptyText}
            busy={list.isFetching}
            actions={{
              onWebmail: (row) => openSignon(webmail.mutate, row.mailbox.id),
              onPassword: setPassword,
              onRules: setRulesRow,
              onQuota: setQuotaRow,
              onEdit: setEditing,
              onDelete: setDeleting,
            }}
          />
        </ListBody>
      </ListCard>

      <MailAuthCard set={set} />

      <MailCreateModal opened={creating} onClose={closeCreate} serviceId={serviceId} domain={domain} rights={rights} />
      <ConnectionModal
        opened={connection}
        onClose={closeConnection}
        serviceId={serviceId}
        domain={domain}
        allowed={rights.visible}
        profiles={isVisible(set.permissions.servicemail_accounts)}
      />
      <AliasEditModal row={editing} onClose={closeEdit} serviceId={serviceId} allowed={rights.alias} />
      <PasswordModal row={password} onClose={closePassword} serviceId={serviceId} allowed={rights.account} />
      <RulesModal row={rulesRow} onClose={closeRules} serviceId={serviceId} allowed={rights.account} />
      <QuotaModal row={quotaRow} onClose={closeQuota} serviceId={serviceId} allowed={rights.account} />
      <ConfirmModal
        opened={deleting !== null && deleteShown}
        message={
          deleting?.type === 'account'
            ? t('mail.delete_account_confirm', { name: deleting.name })
            : t('mail.delete_alias_confirm', { name: deleting?.name ?? '' })
        }
        title={t('mail.delete_title')}
        confirmLabel={t('mail.delete')}
        busy={removeMailbox.isPending || removeAlias.isPending}
        onConfirm={runDelete}
        onClose={closeDelete}
        testId="mail-delete-modal"
        confirmTestId="mail-delete-confirm"
      />
    </ListPage>
  );
}
