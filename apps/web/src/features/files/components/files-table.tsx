import { Anchor, Group, Text } from '@mantine/core';
import type { FileEntry } from '@panel247/contract/files';
import {
  IconCursorText,
  IconDownload,
  IconEye,
  IconFile,
  IconFileCode,
  IconFolder,
  IconLink,
  IconPlug,
  IconTrash,
} from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { Link } from 'react-router';
import { ListTable } from '../../../components/list-table';
import { RowActions } from '../../../components/row-actions';
import { formatEpoch } from '../../../lib/dates';
import { formatBytes } from '../../../lib/format-bytes';
import { useTranslation } from '../../../lib/use-translation';
import { EntryMenu, type EntryMenuActions } from './entry-menu';

export interface FileRowActions extends EntryMenuActions {
  /** The address of the view on a folder. */
  folderLink: (entry: FileEntry) => string;
  /** The address that downloads an entry (a folder as a .zip). */
  downloadLink: (entry: FileEntry) => string;
  onEdit: (entry: FileEntry) => void;
  onRename: (entry: FileEntry) => void;
  onDelete: (entry: FileEntry) => void;
}

const TYPE_ICONS = { folder: IconFolder, file: IconFile, link: IconLink, special: IconPlug } as const;

function EntryName({ entry, folderLink }: { entry: FileEntry; folderLink: string }) {
  const { t } = useTranslation();
  const Icon = TYPE_ICONS[entry.type];
  const name = (
    <Text component="span" size="sm" fw={entry.type === 'folder' ? 600 : 400} style={{ overflowWrap: 'anywhere' }}>
      {entry.name}
    </Text>
  );
  return (
    <Group gap={6} wrap="nowrap" align="center">
      <Icon size={18} role="img" aria-label={t(`files.type_${entry.type}`)} style={{ flex: 'none' }} />
      {entry.type === 'folder' ? (
        <Anchor component={Link} to={folderLink} data-testid="files-open-folder" style={{ minWidth: 0 }}>
          {name}
        </Anchor>
      ) : (
        name
      )}
    </Group>
  );
}

/**
 * A folder's entries (folders first, as the server sorts them): the name, which opens a folder,
 * the size, the last change and the permission bits, then the actions. Download is for files
 * and folders (as a .zip); edit is for files (edit only for the text files the server calls editable, and only a view of the text
 * where the user may not change files); rename and delete only where the user may.
 */
export function FilesTable({
  entries,
  writable,
  emptyText,
  busy,
  actions,
}: {
  entries: FileEntry[];
  writable: boolean;
  emptyText: string;
  busy: boolean;
  actions: FileRowActions;
}) {
  const { t, i18n } = useTranslation();
  const columns: DataTableColumn<FileEntry>[] = [
    {
      accessor: 'name',
      title: t('files.name'),
      render: (entry) => <EntryName entry={entry} folderLink={actions.folderLink(entry)} />,
    },
    {
      accessor: 'size',
      title: t('files.size'),
      textAlign: 'right',
      // a folder's size would be its entry's, not its content's: left empty
      render: (entry) => (entry.type === 'file' ? formatBytes(entry.size, i18n.language) : ''),
    },
    {
      accessor: 'modified',
      title: t('files.modified'),
      render: (entry) => formatEpoch(entry.modified, i18n.language),
    },
    {
      accessor: 'mode',
      title: t('files.mode'),
      render: (entry) => (
        <Text size="sm" ff="monospace">
          {entry.mode}
        </Text>
      ),
    },
    {
      accessor: 'actions',
      title: t('files.actions'),
      textAlign: 'right',
      render: (entry) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <RowActions actions={mainActions(entry)} />
          {writable ? <EntryMenu entry={entry} actions={actions} /> : null}
        </Group>
      ),
    },
  ];
  function mainActions(entry: FileEntry) {
    const name = entry.name;
    const file = entry.type === 'file';
    return [
      (file || entry.type === 'folder') && {
        label: t(file ? 'files.download_item' : 'files.download_zip_item', { name }),
        testId: 'files-download',
        icon: <IconDownload size={16} aria-hidden />,
        download: actions.downloadLink(entry),
      },
      // without the right to change files, the editor still shows the text
      file &&
        entry.editable && {
          label: t(writable ? 'files.edit_item' : 'files.view_item', { name }),
          testId: writable ? 'files-edit' : 'files-view-text',
          icon: writable ? <IconFileCode size={16} aria-hidden /> : <IconEye size={16} aria-hidden />,
          onClick: () => actions.onEdit(entry),
        },
      writable && {
        label: t('files.rename_item', { name }),
        testId: 'files-rename',
        icon: <IconCursorText size={16} aria-hidden />,
        onClick: () => actions.onRename(entry),
      },
      writable && {
        label: t('files.delete_item', { name }),
        testId: 'files-delete',
        color: 'red',
        icon: <IconTrash size={16} aria-hidden />,
        onClick: () => actions.onDelete(entry),
      },
    ];
  }
  return (
    <ListTable
      testId="files-list"
      busy={busy}
      records={entries}
      columns={columns}
      emptyText={emptyText}
      idAccessor="name"
      rowAttributes={(entry) => ({ 'data-name': entry.name, 'data-type': entry.type })}
    />
  );
}
