import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { FileEntry } from '@panel247/contract/files';
import { useMemo, useState } from 'react';
import { ListBody } from '../../../components/list-body';
import { useClientPage } from '../../../lib/use-client-page';
import { useTranslation } from '../../../lib/use-translation';
import { type FileRowActions, FilesTable } from './files-table';

/** The entries whose name contains the text, case-insensitive. */
export function filterEntries(entries: readonly FileEntry[], text: string): FileEntry[] {
  const needle = text.trim().toLowerCase();
  return needle === '' ? [...entries] : entries.filter((entry) => entry.name.toLowerCase().includes(needle));
}

/**
 * The list of one folder with its name filter and pages. The view mounts one per folder, so each
 * folder opens unfiltered on its first page.
 */
export function FolderEntries({
  entries,
  loading,
  failed,
  busy,
  writable,
  actions,
}: {
  entries: readonly FileEntry[];
  loading: boolean;
  failed: boolean;
  busy: boolean;
  writable: boolean;
  actions: FileRowActions;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const shown = useMemo(() => filterEntries(entries, text), [entries, text]);
  const { page, setPage, pageRows } = useClientPage(shown, LIST_PAGE_SIZE);
  const emptyText = failed ? t('files.load_error') : text.trim() ? t('files.no_results') : t('files.empty');
  return (
    <ListBody
      testId="files"
      filter={{ label: t('files.filter'), placeholder: t('files.filter_placeholder'), value: text, onChange: setText }}
      loading={loading}
      pagination={{ page, pageSize: LIST_PAGE_SIZE, total: shown.length, onChange: setPage }}
    >
      <FilesTable entries={pageRows} writable={writable} emptyText={emptyText} busy={busy} actions={actions} />
    </ListBody>
  );
}
