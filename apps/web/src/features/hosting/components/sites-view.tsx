import { Button, Group } from '@mantine/core';
import { isActionable, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { Subdomain } from '@panel247/contract/hosting';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconApps, IconPlus } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { notifyCall } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteSubdomain } from '../api/delete-subdomain';
import { useSubdomainPage } from '../api/list-subdomain-page';
import { siteHost } from '../lib/hosting-rows';
import { installerAllowed } from '../lib/installer-rules';
import { InstallerModal, type InstallerTarget } from './installer-modal';
import { SiteModal, type SiteTarget } from './site-modal';
import { SitesTable } from './sites-table';
import { SslInfoModal } from './ssl-info-modal';
import { WebApplyingAlert } from './web-applying-alert';

/**
 * The sites of a service (spec section 2, breadcrumb 'service-subdomain/'): list, create, edit,
 * delete, SSL data and the application installer (from the toolbar, or on a row's site). `?subdomain=label` opens the create dialog with that subdomain locked.
 */
export function SitesView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const canWrite = isActionable(set.permissions.service_subdomains);
  const canInstall = installerAllowed(set.permissions);
  usePageTitle(`${t('menu.sites')} · ${set.reference}`);

  const { text, setText, filter, page, setPage } = useServerPage([serviceId]);
  const list = useSubdomainPage(serviceId, { page, filter });
  useErrorToast(list.error);
  const sites = list.data?.subdomains ?? [];
  // a full answer (no total) counts its own rows
  const total = list.data?.total ?? sites.length;
  useStepBack(total, list.data !== undefined, page, setPage);

  const [params, setParams] = useSearchParams();
  const prefilled = params.get('subdomain');
  const [target, setTarget, closeTarget] = useDialog<SiteTarget | null>(null);
  useEffect(() => {
    if (prefilled) setTarget({ kind: 'new', subDomain: prefilled });
  }, [prefilled, setTarget]);
  const closeSite = () => {
    closeTarget();
    if (prefilled) setParams({}, { replace: true });
  };
  const [sslOf, setSslOf, closeSsl] = useDialog<Subdomain | null>(null);
  const [installing, setInstalling, closeInstaller] = useDialog<InstallerTarget | null>(null);
  const [deleting, setDeleting, closeDelete] = useDialog<Subdomain | null>(null);
  const remove = useDeleteSubdomain(serviceId);
  const deleteShown = useRightGuard(deleting !== null, canWrite, closeDelete);
  const runDelete = async () => {
    if (deleting) await notifyCall(() => remove.mutateAsync(deleting.id), closeDelete);
  };

  const emptyText = list.isError
    ? t('hosting.load_error')
    : filter
      ? t('hosting.sites_no_results')
      : t('hosting.sites_empty');

  return (
    <ListPage testId="sites-view" title={set.reference}>
      <WebApplyingAlert set={set} />
      <ListCard
        title={t('hosting.sites_title')}
        actions={
          canWrite || canInstall ? (
            <Group gap="sm" wrap="wrap" justify="flex-end">
              {canInstall ? (
                <Button
                  variant="light"
                  leftSection={<IconApps size={16} aria-hidden />}
                  onClick={() => setInstalling({ site: null })}
                  data-testid="hosting-install"
                >
                  {t('installer.open')}
                </Button>
              ) : null}
              {canWrite ? (
                <Button
                  leftSection={<IconPlus size={16} aria-hidden />}
                  onClick={() => setTarget({ kind: 'new' })}
                  data-testid="hosting-site-create"
                >
                  {t('hosting.site_create')}
                </Button>
              ) : null}
            </Group>
          ) : null
        }
      >
        <ListBody
          testId="hosting-site"
          filter={{
            label: t('hosting.filter'),
            placeholder: t('hosting.sites_filter_placeholder'),
            value: text,
            onChange: setText,
          }}
          pagedOnServer
          loading={list.isPending}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
        >
          <SitesTable
            sites={sites}
            serviceId={serviceId}
            canWrite={canWrite}
            emptyText={emptyText}
            busy={list.isFetching}
            actions={{
              onSsl: setSslOf,
              onEdit: (site) => setTarget({ kind: 'edit', site }),
              onDelete: setDeleting,
              extra: (site) => [
                canInstall && {
                  label: t('installer.open_on', { name: siteHost(site.subdominio, site.referencePunycode) }),
                  testId: 'hosting-site-install',
                  icon: <IconApps size={16} aria-hidden />,
                  onClick: () => setInstalling({ site }),
                },
              ],
            }}
          />
        </ListBody>
      </ListCard>
      <SiteModal
        target={target}
        onClose={closeSite}
        serviceId={serviceId}
        domain={set.referencePunycode}
        allowed={canWrite}
      />
      <SslInfoModal site={sslOf} onClose={closeSsl} />
      <InstallerModal target={installing} onClose={closeInstaller} set={set} />
      <ConfirmModal
        opened={deleting !== null && deleteShown}
        title={t('hosting.site_delete_title')}
        message={t('hosting.site_delete_confirm', {
          name: deleting ? siteHost(deleting.subdominio, deleting.referencePunycode) : '',
        })}
        confirmLabel={t('hosting.delete')}
        busy={remove.isPending}
        onConfirm={runDelete}
        onClose={closeDelete}
        testId="hosting-site-delete-modal"
      />
    </ListPage>
  );
}
