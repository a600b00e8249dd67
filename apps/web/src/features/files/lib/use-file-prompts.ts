import { FILE_NAME_MAX, FILE_PATH_MAX, type FileEntry } from '@panel247/contract/files';
import { useDialog } from '../../../lib/use-dialog';
import { useTranslation } from '../../../lib/use-translation';
import { useChangeMode } from '../api/change-mode';
import { type CopyHow, useCopyEntry } from '../api/copy-entry';
import { useCreateFolder } from '../api/create-folder';
import { useRenameFile } from '../api/rename-file';
import type { PromptRequest } from '../components/prompt-modal';
import { folderProblem, modeProblem, nameProblem } from './file-checks';
import { folderFromInput } from './file-paths';
import type { FilesRoot } from './files-root';

/** `0644` as typed: the special bits' digit is never set here, so it is left out. */
function modeAsTyped(mode: string): string {
  return mode.length === 4 && mode.startsWith('0') ? mode.slice(1) : mode;
}

/**
 * The changes that take one typed value (a new folder, a rename, a copy or a move, permission
 * bits): each builds the question for the prompt dialog and runs its call with the answer.
 */
export function useFilePrompts({
  root,
  folder,
  rootLabel,
  pathOf,
}: {
  root: FilesRoot;
  /** The folder shown: new folders go there, and copies start from there. */
  folder: string;
  /** The root's name, for the destination's hint. */
  rootLabel: string;
  pathOf: (entry: FileEntry) => string;
}) {
  const { t } = useTranslation();
  const [prompt, setPrompt, closePrompt] = useDialog<PromptRequest | null>(null);
  const createFolder = useCreateFolder(root);
  const rename = useRenameFile(root);
  const copy = useCopyEntry(root);
  const mode = useChangeMode(root);
  const nameField = { field: 'name', maxLength: FILE_NAME_MAX, check: nameProblem };

  return {
    prompt,
    closePrompt,
    busy: createFolder.isPending || rename.isPending || copy.isPending || mode.isPending,
    askNewFolder: () =>
      setPrompt({
        ...nameField,
        title: t('files.new_folder_title'),
        label: t('files.folder_name'),
        submitLabel: t('files.create'),
        initial: '',
        submit: (name) => createFolder.mutateAsync({ folder, name }),
      }),
    askRename: (entry: FileEntry) =>
      setPrompt({
        ...nameField,
        title: t('files.rename_title'),
        label: t('files.new_name'),
        submitLabel: t('files.rename'),
        initial: entry.name,
        submit: (name) => rename.mutateAsync({ path: pathOf(entry), name }),
      }),
    askCopy: (entry: FileEntry, how: CopyHow) =>
      setPrompt({
        title: t(how === 'copy' ? 'files.copy_title' : 'files.move_title', { name: entry.name }),
        label: t('files.destination'),
        description: t('files.destination_hint', { root: rootLabel }),
        submitLabel: t(how === 'copy' ? 'files.copy' : 'files.move'),
        initial: `/${folder}`,
        field: 'to',
        maxLength: FILE_PATH_MAX,
        check: folderProblem,
        submit: (to) => copy.mutateAsync({ how, path: pathOf(entry), to: folderFromInput(to) ?? '' }),
      }),
    askMode: (entry: FileEntry) =>
      setPrompt({
        title: t('files.mode_title', { name: entry.name }),
        label: t('files.mode_label'),
        description: t('files.mode_hint'),
        submitLabel: t('main.save'),
        initial: modeAsTyped(entry.mode),
        field: 'mode',
        maxLength: 4,
        check: modeProblem,
        submit: (bits) => mode.mutateAsync({ path: pathOf(entry), mode: bits.trim() }),
      }),
  };
}
