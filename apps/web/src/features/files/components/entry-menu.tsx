import { ActionIcon, Menu } from '@mantine/core';
import type { FileEntry } from '@panel247/contract/files';
import { IconArrowsMove, IconCopy, IconDots, IconFileZip, IconLock } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/use-translation';

export interface EntryMenuActions {
  onCopy: (entry: FileEntry, how: 'copy' | 'move') => void;
  onMode: (entry: FileEntry) => void;
  onExtract: (entry: FileEntry) => void;
  /** An archive is being extracted: another one waits until it ends. */
  extracting: boolean;
}

/**
 * The changes a row needs less often than rename and delete, in a menu so that a row's buttons
 * still fit beside its name on a phone: copy to, move to, permissions, and extract (archives).
 */
export function EntryMenu({ entry, actions }: { entry: FileEntry; actions: EntryMenuActions }) {
  const { t } = useTranslation();
  const icon = { size: 16, 'aria-hidden': true } as const;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={t('files.more_item', { name: entry.name })} data-testid="files-more">
          <IconDots size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={<IconCopy {...icon} />}
          onClick={() => actions.onCopy(entry, 'copy')}
          data-testid="files-copy"
        >
          {t('files.copy_item')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconArrowsMove {...icon} />}
          onClick={() => actions.onCopy(entry, 'move')}
          data-testid="files-move"
        >
          {t('files.move_item')}
        </Menu.Item>
        <Menu.Item leftSection={<IconLock {...icon} />} onClick={() => actions.onMode(entry)} data-testid="files-mode">
          {t('files.mode_item')}
        </Menu.Item>
        {entry.extractable ? (
          <Menu.Item
            leftSection={<IconFileZip {...icon} />}
            onClick={() => actions.onExtract(entry)}
            disabled={actions.extracting}
            data-testid="files-extract"
          >
            {t('files.extract_item')}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
