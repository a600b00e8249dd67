import { Alert, Button, Group, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { AccountUser, AccountUserPermissionsCopyData } from '@panel247/contract/account-users';
import { IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { LIST_FILTER_DEBOUNCE_MS } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useCopyUserPermissions } from '../api/copy-user-permissions';
import { useUsers } from '../api/list-users';

/** Options drawn at a time; typing asks the server for the names that match. */
const OPTIONS_PAGE = 100;

type Outcome = AccountUserPermissionsCopyData & { from: string };

/**
 * "Same as another user": choose one of the account's other users, confirm, and this user gets
 * their levels on every resource the editor sees, none above the editor's own. What changed (and
 * what was held lower) stays written under the control.
 */
export function UserCopyControl({ user }: { user: AccountUser }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [filter] = useDebouncedValue(search.trim(), LIST_FILTER_DEBOUNCE_MS);
  const [from, setFrom] = useState<AccountUser | null>(null);
  // the users are asked for once the control is used, not with every user's page
  const [wanted, setWanted] = useState(false);
  const others = useUsers(
    {
      page: 1,
      pageSize: OPTIONS_PAGE,
      // the chosen name fills the box: it is not a search for others
      filter: from && filter === from.username ? '' : filter,
      sort: 'username',
      order: 'asc',
    },
    wanted,
  );
  const candidates = (others.data?.users ?? []).filter((other) => other.id !== user.id);
  const options = [...candidates, ...(from && !candidates.some((other) => other.id === from.id) ? [from] : [])];
  const [confirming, setConfirming, closeConfirm] = useDialog(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const copy = useCopyUserPermissions(user.id);

  const run = async () => {
    if (!from) return;
    try {
      const result = await copy.mutateAsync(from.id);
      notifySuccess(result.info);
      setOutcome({ changed: result.changed, limited: result.limited, from: from.username });
      closeConfirm();
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('users.copy_label')}
          description={t('users.copy_hint')}
          placeholder={t('users.copy_placeholder')}
          data={options.map((other) => ({ value: String(other.id), label: other.username }))}
          value={from ? String(from.id) : null}
          onChange={(value) => setFrom(options.find((other) => String(other.id) === value) ?? null)}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          onDropdownOpen={() => setWanted(true)}
          onFocus={() => setWanted(true)}
          // the server has filtered already
          filter={({ options: all }) => all}
          nothingFoundMessage={others.isFetching ? t('main.loading') : t('lists.no_results')}
          clearable
          clearButtonProps={{ 'aria-label': t('users.copy_clear') }}
          w={{ base: '100%', xs: 280 }}
          data-testid="user-copy-select"
        />
        <Button
          variant="default"
          leftSection={<IconCopy size={16} aria-hidden />}
          disabled={!from}
          onClick={() => setConfirming(true)}
          data-testid="user-copy"
        >
          {t('users.copy')}
        </Button>
      </Group>
      {outcome ? (
        <Alert
          color="blue"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel={t('main.close')}
          onClose={() => setOutcome(null)}
          data-testid="user-copy-outcome"
        >
          {t('users.copy_changed', { count: outcome.changed, from: outcome.from })}
          {outcome.limited > 0 ? ` ${t('users.copy_limited', { count: outcome.limited, from: outcome.from })}` : ''}
        </Alert>
      ) : null}
      <ConfirmModal
        opened={confirming && from !== null}
        title={t('users.copy_title')}
        message={t('users.copy_confirm', { name: user.username, from: from?.username ?? '' })}
        confirmLabel={t('users.copy')}
        color={null}
        busy={copy.isPending}
        onConfirm={() => void run()}
        onClose={closeConfirm}
        testId="user-copy-modal"
      />
    </Stack>
  );
}
