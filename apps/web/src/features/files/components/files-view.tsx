import { Group, Loader, Stack, Text } from '@mantine/core';
import type { FileEntry } from '@panel247/contract/files';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListCard, ListPage } from '../../../components/list-page';
import { notifyCall, notifyError, notifySuccess } from '../../../lib/notify';
import { paths } from '../../../lib/resource-paths';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteFile } from '../api/delete-file';
import { downloadLink } from '../api/download-link';
import { useExtractArchive } from '../api/extract-archive';
import { useFilesList } from '../api/list-files';
import { baseName, folderFromQuery, ftpFromQuery, joinPath } from '../lib/file-paths';
import { type FilesRoot, filesQueryKey } from '../lib/files-root';
import { useFilePrompts } from '../lib/use-file-prompts';
import { useUploads } from '../lib/use-uploads';
import { DropZone } from './drop-zone';
import { FileEditorModal } from './file-editor-modal';
import { FolderEntries } from './folder-entries';
import { FolderToolbar } from './folder-toolbar';
import { PathBreadcrumb } from './path-breadcrumb';
import { PromptModal } from './prompt-modal';
import { UploadList } from './upload-list';

/**
 * The file manager of a service (its home, or an FTP account's folder with `?ftp=`): one folder
 * (`?path=`) at a time, so the browser's back button walks back up. Changing files (new folder,
 * upload, edit, rename, copy, move, permissions, extract, delete) is offered only where the
 * server says the folder is writable.
 */
export function FilesView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const ftp = ftpFromQuery(search.get('ftp'));
  const folder = folderFromQuery(search.get('path'));
  const root: FilesRoot = useMemo(() => ({ serviceId: set.id, ftp }), [set.id, ftp]);

  const list = useFilesList(root, folder);
  useErrorToast(list.error);
  // the folder listed: while the next one loads, the rows (and their actions) stay this one's
  const shown = list.data;
  const account = shown?.account ?? '';
  const writable = shown?.writable ?? false;
  usePageTitle(`${t('menu.files')} · ${account || set.reference}`);

  const linkTo = (path: string) => paths.serviceFiles(set.id, { ftp, path });
  const entryPath = (entry: FileEntry) => joinPath(shown?.path ?? folder, entry.name);

  const rootLabel = account || t('files.root');
  const remove = useDeleteFile(root);
  const extract = useExtractArchive(root);
  const prompts = useFilePrompts({ root, folder, rootLabel, pathOf: entryPath });
  const [deleting, setDeleting, closeDelete] = useDialog<FileEntry | null>(null);
  const [editing, setEditing, closeEditor] = useDialog<{ path: string; name: string } | null>(null);

  const uploads = useUploads(() => queryClient.invalidateQueries({ queryKey: filesQueryKey(root) }));
  const upload = (files: File[]) => {
    if (files.length > 0) uploads.add(files, root, folder);
  };

  const runDelete = async () => {
    if (deleting) await notifyCall(() => remove.mutateAsync(entryPath(deleting)), closeDelete);
  };
  const runExtract = (entry: FileEntry) =>
    extract.mutateAsync(entryPath(entry)).then(({ info }) => notifySuccess(info), notifyError);

  return (
    <ListPage testId="files-view" title={set.reference}>
      <ListCard
        title={t('files.list_title')}
        subtitle={<PathBreadcrumb rootLabel={rootLabel} path={folder} linkTo={linkTo} />}
        actions={
          <FolderToolbar writable={shown ? writable : null} onNewFolder={prompts.askNewFolder} onFiles={upload} />
        }
      >
        <UploadList items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clearFinished} />
        {extract.isPending ? (
          // a big archive takes a while: say what is happening until the new folder is listed
          <Group gap="xs" role="status" mb="sm" data-testid="files-extracting">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{t('files.extracting', { name: baseName(extract.variables) })}</Text>
          </Group>
        ) : null}
        <DropZone
          enabled={writable}
          label={t('files.drop_here', { folder: folder === '' ? rootLabel : folder })}
          onFiles={upload}
        >
          <Stack gap="md">
            <FolderEntries
              key={folder}
              entries={shown?.entries ?? []}
              loading={list.isPending}
              failed={list.isError}
              busy={list.isFetching || extract.isPending}
              writable={writable}
              actions={{
                folderLink: (entry) => linkTo(entryPath(entry)),
                downloadLink: (entry) => downloadLink(root, entryPath(entry), entry.type),
                onEdit: (entry) => setEditing({ path: entryPath(entry), name: entry.name }),
                onRename: prompts.askRename,
                onDelete: setDeleting,
                onCopy: prompts.askCopy,
                onMode: prompts.askMode,
                onExtract: runExtract,
                extracting: extract.isPending,
              }}
            />
            {writable ? (
              // phones have nothing to drag files from
              <Text size="xs" c="dimmed" visibleFrom="xs">
                {t('files.drop_hint')}
              </Text>
            ) : null}
          </Stack>
        </DropZone>
      </ListCard>

      <PromptModal request={prompts.prompt} busy={prompts.busy} onClose={prompts.closePrompt} />
      <ConfirmModal
        opened={deleting !== null}
        title={t(deleting?.type === 'folder' ? 'files.delete_folder_title' : 'files.delete_file_title')}
        message={t(deleting?.type === 'folder' ? 'files.delete_folder_confirm' : 'files.delete_file_confirm', {
          name: deleting?.name ?? '',
        })}
        confirmLabel={t('files.delete')}
        busy={remove.isPending}
        onConfirm={runDelete}
        onClose={closeDelete}
        testId="files-delete-modal"
      />
      <FileEditorModal root={root} file={editing} readOnly={!writable} onClose={closeEditor} />
    </ListPage>
  );
}
