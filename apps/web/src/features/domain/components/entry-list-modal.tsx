import { ActionIcon, Group, Loader, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useActionError, useActionGuard } from '../lib/use-action-guard';
import { ConfirmDeleteModal } from './confirm-delete-modal';

/** What tells one registry list (glue records, DNSSEC entries) from another. */
export interface EntryListKind<T extends { id: number }> {
  /** Test ids: `{testId}-list-modal`, `-table`, `-row`, `-edit`, `-delete`, `-delete-modal`. */
  testId: string;
  title: string;
  empty: string;
  size: 'lg' | 'xl';
  minWidth: number;
  /** Tighter rows (long digests wrap). */
  dense?: boolean;
  /** Module-level hooks (the same ones on every render): the list and the delete call. */
  useList: (id: number, enabled: boolean) => UseQueryResult<T[]>;
  useDelete: (id: number) => UseMutationResult<string[], unknown, number>;
  headers: string[];
  /** The data cells of a row (`Table.Td`s); the actions cell follows them. */
  cells: (entry: T) => ReactNode;
  deleteLabel: (entry: T) => string;
  deleteTitle: string;
  deleteMessage: (entry: T | null) => string;
  /** With it, each row has an edit button and the edit dialog takes the list's place. */
  edit?: { label: (entry: T) => string; dialog: (entry: T, close: () => void) => ReactNode };
}

/** A registry list with delete (and edit); the sub-dialogs take its place and hand back to it. */
export function EntryListModal<T extends { id: number }>({
  kind,
  id,
  opened,
  allowed,
  onClose,
}: {
  kind: EntryListKind<T>;
  id: number;
  opened: boolean;
  allowed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ok = useActionGuard(opened, allowed, onClose);
  const list = kind.useList(id, opened && ok);
  const remove = kind.useDelete(id);
  const onError = useActionError();
  const [editing, setEditing] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);

  const closeAll = () => {
    setEditing(null);
    setDeleting(null);
    onClose();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      notifySuccess(await remove.mutateAsync(deleting.id));
      setDeleting(null);
    } catch (error) {
      onError(error, closeAll);
      setDeleting(null);
    }
  };

  const { edit, testId } = kind;
  const entries = list.data ?? [];
  const deleteButton = (entry: T) => (
    <ActionIcon
      variant="subtle"
      color="red"
      aria-label={kind.deleteLabel(entry)}
      onClick={() => setDeleting(entry)}
      data-testid={`${testId}-delete`}
    >
      <IconTrash size={16} aria-hidden />
    </ActionIcon>
  );
  return (
    <>
      <AppModal
        opened={opened && ok && !editing && !deleting}
        onClose={onClose}
        title={kind.title}
        size={kind.size}
        data-testid={`${testId}-list-modal`}
      >
        {list.isPending ? (
          <Loader size="sm" role="status" aria-label={t('main.loading')} />
        ) : entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            {kind.empty}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={kind.minWidth}>
            <Table data-testid={`${testId}-table`} verticalSpacing={kind.dense ? 'xs' : undefined}>
              <Table.Thead>
                <Table.Tr>
                  {kind.headers.map((header) => (
                    <Table.Th key={header}>{header}</Table.Th>
                  ))}
                  <Table.Th>
                    <VisuallyHidden>{t('domain.actions_column')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={entry.id} data-testid={`${testId}-row`}>
                    {kind.cells(entry)}
                    <Table.Td>
                      {edit ? (
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          <ActionIcon
                            variant="subtle"
                            aria-label={edit.label(entry)}
                            onClick={() => setEditing(entry)}
                            data-testid={`${testId}-edit`}
                          >
                            <IconEdit size={16} aria-hidden />
                          </ActionIcon>
                          {deleteButton(entry)}
                        </Group>
                      ) : (
                        deleteButton(entry)
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </AppModal>
      {edit && editing ? edit.dialog(editing, () => setEditing(null)) : null}
      <ConfirmDeleteModal
        opened={opened && deleting !== null}
        title={kind.deleteTitle}
        message={kind.deleteMessage(deleting)}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
        testId={`${testId}-delete-modal`}
      />
    </>
  );
}
