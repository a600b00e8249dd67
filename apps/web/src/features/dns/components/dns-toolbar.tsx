import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload, IconFileImport, IconPlus, IconRestore, IconTrash } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/use-translation';

/**
 * The zone's menu: create, import, restore defaults and delete all need the DNS-zone write right;
 * the zone export only reading.
 */
export function DnsToolbar({
  canWrite,
  exporting,
  onCreate,
  onImport,
  onExport,
  onRestore,
  onDeleteAll,
}: {
  canWrite: boolean;
  exporting: boolean;
  onCreate: () => void;
  onImport: () => void;
  onExport: () => void;
  onRestore: () => void;
  onDeleteAll: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="light"
          rightSection={<IconChevronDown size={16} aria-hidden />}
          loading={exporting}
          data-testid="dns-toolbar"
        >
          {t('dns.toolbar')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {canWrite ? (
          <Menu.Item leftSection={<IconPlus size={16} aria-hidden />} onClick={onCreate} data-testid="dns-create">
            {t('dns.create')}
          </Menu.Item>
        ) : null}
        {canWrite ? (
          <Menu.Item leftSection={<IconFileImport size={16} aria-hidden />} onClick={onImport} data-testid="dns-import">
            {t('dns.import.open')}
          </Menu.Item>
        ) : null}
        <Menu.Item leftSection={<IconDownload size={16} aria-hidden />} onClick={onExport} data-testid="dns-export">
          {t('dns.export')}
        </Menu.Item>
        {canWrite ? (
          <>
            <Menu.Divider />
            <Menu.Item
              leftSection={<IconRestore size={16} aria-hidden />}
              onClick={onRestore}
              data-testid="dns-restore"
            >
              {t('dns.restore')}
            </Menu.Item>
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={onDeleteAll}
              data-testid="dns-delete-all"
            >
              {t('dns.delete_all')}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
