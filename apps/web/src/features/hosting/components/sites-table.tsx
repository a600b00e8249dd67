import { Badge, Stack, Text } from '@mantine/core';
import type { Subdomain } from '@panel247/contract/hosting';
import { IconCertificate, IconPencil, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { HostText } from '../../../components/host-text';
import { ListTable } from '../../../components/list-table';
import { type RowAction, rowActionsColumn } from '../../../components/row-actions';
import { formatEpoch } from '../../../lib/dates';
import { folderLabel } from '../../../lib/service-folder';
import { useTranslation } from '../../../lib/use-translation';
import { useSiteCertificate } from '../api/site-certificate';
import { siteHost, sslState } from '../lib/hosting-rows';
import { CertificateBadge } from './certificate-status';

export interface SiteRowActions {
  onSsl: (site: Subdomain) => void;
  onEdit: (site: Subdomain) => void;
  onDelete: (site: Subdomain) => void;
  /**
   * More actions of a row (e.g. "install an application"), placed before edit and delete; each
   * decides its own right.
   */
  extra?: (site: Subdomain) => (RowAction | false | null)[];
}

const STATE_COLOR = { off: 'gray', active: 'green', expired: 'red', not_yet_valid: 'orange' } as const;

/**
 * A site's SSL: an automatic certificate shows its state (followed while an order runs) and
 * expiry; otherwise the installed certificate's state, names and expiry.
 */
function SslCell({ site, serviceId, now }: { site: Subdomain; serviceId: number; now: number }) {
  const { t, i18n } = useTranslation();
  const certificate = useSiteCertificate(serviceId, site.id);
  if (certificate.data) return <CertificateBadge certificate={certificate.data} />;
  const state = sslState(site, now);
  const info = site.ssl.info;
  return (
    <Stack gap={2} data-testid="hosting-site-ssl">
      <Badge variant="light" color={STATE_COLOR[state]}>
        {t(`hosting.ssl_${state}`)}
      </Badge>
      {site.ssl.enabled && info ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('hosting.ssl_summary', {
            names: info.names.join(', ') || '—',
            date: formatEpoch(info.validTo, i18n.language, 'day'),
          })}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The sites: full host, folder, SSL state (certificate names and expiry) and the row's actions. */
export function SitesTable({
  sites,
  serviceId,
  canWrite,
  emptyText,
  busy,
  actions,
}: {
  sites: Subdomain[];
  serviceId: number;
  canWrite: boolean;
  emptyText: string;
  busy: boolean;
  actions: SiteRowActions;
}) {
  const { t } = useTranslation();
  const now = Math.floor(Date.now() / 1000);
  const columns: DataTableColumn<Subdomain>[] = [
    {
      accessor: 'subdominio',
      title: t('hosting.site'),
      render: (site) => <HostText fw={500} value={siteHost(site.subdominio, site.referencePunycode)} />,
    },
    {
      accessor: 'directorio',
      title: t('hosting.folder'),
      render: (site) => <HostText ff="monospace" value={folderLabel(site.directorio)} testId="hosting-site-folder" />,
    },
    {
      accessor: 'ssl',
      title: t('hosting.ssl'),
      render: (site) => <SslCell site={site} serviceId={serviceId} now={now} />,
    },
    rowActionsColumn(t('hosting.actions'), (site) => {
      const name = siteHost(site.subdominio, site.referencePunycode);
      return [
        {
          label: t('hosting.ssl_item', { name }),
          testId: 'hosting-site-ssl-data',
          icon: <IconCertificate size={16} aria-hidden />,
          onClick: () => actions.onSsl(site),
        },
        ...(actions.extra?.(site) ?? []),
        canWrite && {
          label: t('hosting.edit_site_item', { name }),
          testId: 'hosting-site-edit',
          icon: <IconPencil size={16} aria-hidden />,
          onClick: () => actions.onEdit(site),
        },
        canWrite &&
          site.eliminable && {
            label: t('hosting.delete_item', { name }),
            testId: 'hosting-site-delete',
            color: 'red',
            icon: <IconTrash size={16} aria-hidden />,
            onClick: () => actions.onDelete(site),
          },
      ];
    }),
  ];
  return (
    <ListTable
      testId="hosting-site-list"
      busy={busy}
      records={sites}
      columns={columns}
      emptyText={emptyText}
      verticalAlign="top"
      rowAttributes={(site) => ({ 'data-name': siteHost(site.subdominio, site.referencePunycode) })}
    />
  );
}
