import { Badge } from '@mantine/core';
import type { AccountUser } from '@panel247/contract/account-users';
import { useTranslation } from '../../../lib/use-translation';
import { STATE_COLORS, userState } from '../lib/user-state';

// Badges keep the words' own case: "Invitation expired" reads better than shouted capitals.
const PLAIN = { textTransform: 'none' } as const;

/** "You": the row of the user looking at the list. */
export function SelfBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="outline" style={PLAIN} data-testid="user-self">
      {t('users.you')}
    </Badge>
  );
}

/** Active, invited (pending), invitation expired or cancelled, disabled. */
export function StateBadge({ user }: { user: Pick<AccountUser, 'disabled' | 'invitation'> }) {
  const { t } = useTranslation();
  const state = userState(user);
  return (
    <Badge
      size="sm"
      variant="light"
      color={STATE_COLORS[state]}
      style={PLAIN}
      data-testid="user-state"
      data-state={state}
    >
      {t(`users.state.${state}`)}
    </Badge>
  );
}

/** The second factor (an app or a passkey) guards their login, or not. */
export function TwoFactorBadge({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="light" color={on ? 'green' : 'gray'} style={PLAIN} data-testid="user-two-factor">
      {on ? t('two_factor.on') : t('two_factor.off')}
    </Badge>
  );
}

/** Holds the account's right to manage users. */
export function ManagerBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="light" color="violet" style={PLAIN} data-testid="user-manager">
      {t('users.manager_badge')}
    </Badge>
  );
}
