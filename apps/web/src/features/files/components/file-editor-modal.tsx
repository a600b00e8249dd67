import { Alert, Button, Group, Stack } from '@mantine/core';
import { lazy, Suspense, useRef, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { ConfirmModal } from '../../../components/confirm-modal';
import { FormButtons } from '../../../components/form-buttons';
import { ListSkeleton } from '../../../components/list-skeleton';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePhone } from '../../../lib/use-phone';
import { useTranslation } from '../../../lib/use-translation';
import { useFileText } from '../api/read-file';
import { useSaveFileText } from '../api/save-file-text';
import type { FilesRoot } from '../lib/files-root';
import { useLeaveWarning } from '../lib/use-leave-warning';

// CodeMirror and its languages load with the first file opened, never with the list
const CodeEditor = lazy(() => import('./code-editor'));

function EditorForm({
  name,
  original,
  readOnly,
  busy,
  onSave,
  onCancel,
  onChange,
}: {
  name: string;
  original: string;
  readOnly: boolean;
  busy: boolean;
  onSave: (content: string) => void;
  onCancel: () => void;
  onChange: (dirty: boolean) => void;
}) {
  const { t } = useTranslation();
  // the editor holds the text; this is its latest copy, for the save
  const content = useRef(original);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSave(content.current);
      }}
      data-testid="files-editor-form"
    >
      <Stack gap="md">
        <Suspense fallback={<ListSkeleton rows={6} height={20} testId="files-editor-skeleton" />}>
          <CodeEditor
            name={name}
            label={t('files.content', { name })}
            initial={original}
            readOnly={readOnly}
            onChange={(value) => {
              content.current = value;
              onChange(value !== original);
            }}
          />
        </Suspense>
        {readOnly ? (
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t('main.close')}
            </Button>
          </Group>
        ) : (
          <FormButtons submitting={busy} onCancel={onCancel} submitTestId="files-editor-save" />
        )}
      </Stack>
    </form>
  );
}

/**
 * The text editor of one file: it reads the file afresh, saves it whole, and does not let a close
 * throw unsaved changes away without asking. The text is highlighted by the file's extension.
 */
export function FileEditorModal({
  root,
  file,
  readOnly,
  onClose,
}: {
  root: FilesRoot;
  /** Without the right to change files: the text is shown, not editable. */
  readOnly: boolean;
  /** The file's path and name, or null when closed. */
  file: { path: string; name: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  const text = useFileText(root, file?.path ?? null);
  useErrorToast(text.error);
  const save = useSaveFileText(root);
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  useLeaveWarning(dirty);

  const close = () => {
    setDirty(false);
    setAsking(false);
    onClose();
  };
  const requestClose = () => (dirty ? setAsking(true) : close());
  const runSave = async (content: string) => {
    if (!file) return;
    try {
      notifySuccess(await save.mutateAsync({ path: file.path, content }));
      close();
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <>
      <AppModal
        opened={file !== null}
        onClose={requestClose}
        title={file ? t(readOnly ? 'files.view_title' : 'files.edit_title', { name: file.name }) : ''}
        size="xl"
        fullScreen={phone}
        data-testid="files-editor-modal"
      >
        {!file ? null : text.isPending ? (
          <ListSkeleton rows={6} height={20} testId="files-editor-skeleton" />
        ) : text.isError ? (
          <Alert color="red" data-testid="files-editor-error">
            {t('files.file_load_error')}
          </Alert>
        ) : (
          <EditorForm
            key={file.path}
            name={file.name}
            original={text.data.content}
            readOnly={readOnly}
            busy={save.isPending}
            onSave={runSave}
            onCancel={requestClose}
            onChange={setDirty}
          />
        )}
      </AppModal>
      <ConfirmModal
        opened={asking}
        title={t('files.discard_title')}
        message={t('files.discard_confirm', { name: file?.name ?? '' })}
        confirmLabel={t('files.discard')}
        busy={false}
        onConfirm={close}
        onClose={() => setAsking(false)}
        testId="files-discard-modal"
      />
    </>
  );
}
