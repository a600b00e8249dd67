import { Badge, Button, FileButton, Group } from '@mantine/core';
import { IconFolderPlus, IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import { useTranslation } from '../../../lib/use-translation';

/**
 * The buttons above a folder: "new folder" and "upload" where it may be changed, a read-only
 * badge where it may not, nothing until the server has said which.
 */
export function FolderToolbar({
  writable,
  onNewFolder,
  onFiles,
}: {
  writable: boolean | null;
  onNewFolder: () => void;
  onFiles: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  // the same file picked twice in a row must still count as a change
  const resetFileInput = useRef<() => void>(null);
  if (writable === null) return null;
  if (!writable) {
    return (
      <Badge variant="light" color="gray" data-testid="files-read-only">
        {t('files.read_only')}
      </Badge>
    );
  }
  return (
    <Group gap="xs">
      <Button
        variant="default"
        leftSection={<IconFolderPlus size={16} aria-hidden />}
        onClick={onNewFolder}
        data-testid="files-new-folder"
      >
        {t('files.new_folder')}
      </Button>
      <FileButton
        multiple
        resetRef={resetFileInput}
        onChange={(files) => {
          onFiles(files);
          resetFileInput.current?.();
        }}
      >
        {(props) => (
          <Button leftSection={<IconUpload size={16} aria-hidden />} {...props} data-testid="files-upload">
            {t('files.upload')}
          </Button>
        )}
      </FileButton>
    </Group>
  );
}
