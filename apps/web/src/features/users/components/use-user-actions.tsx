import type { AccountUser } from '@panel247/contract/account-users';
import { ConfirmModal } from '../../../components/confirm-modal';
import { notifyCall } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useTranslation } from '../../../lib/use-translation';
import { useUserAction } from '../api/user-action';
import { CONFIRMED_ACTIONS, type UserAction } from '../lib/user-state';

interface Pending {
  action: UserAction;
  user: AccountUser;
}

/**
 * Runs a user's actions from a menu: those that take access away ask in a dialog first, the
 * others run at once. Each ends with the server's message (or the error) as a toast. Returns the
 * runner, the dialog to render and the user a call is running for.
 */
export function useUserActions({ onDone }: { onDone?: (action: UserAction, user: AccountUser) => void } = {}) {
  const { t } = useTranslation();
  const mutation = useUserAction();
  const [pending, setPending, close] = useDialog<Pending | null>(null);

  const call = (action: UserAction, user: AccountUser, after: () => void) =>
    notifyCall(
      () => mutation.mutateAsync({ action, id: user.id }),
      () => {
        after();
        onDone?.(action, user);
      },
    );

  const run = (action: UserAction, user: AccountUser) => {
    if (CONFIRMED_ACTIONS.has(action)) setPending({ action, user });
    else void call(action, user, () => {});
  };

  const dialog = (
    <ConfirmModal
      opened={pending !== null}
      title={pending ? t(`users.confirm.${pending.action}_title`, { name: pending.user.username }) : ''}
      message={pending ? t(`users.confirm.${pending.action}`, { name: pending.user.username }) : ''}
      confirmLabel={pending ? t(`users.action.${pending.action}`) : ''}
      busy={mutation.isPending}
      onConfirm={() => pending && void call(pending.action, pending.user, close)}
      onClose={close}
      testId="user-confirm-modal"
    />
  );

  const busyId = mutation.isPending ? (mutation.variables?.id ?? null) : null;
  return { run, dialog, busyId };
}
