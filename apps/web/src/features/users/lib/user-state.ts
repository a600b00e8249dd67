import type { AccountUser } from '@panel247/contract/account-users';

/** How a user stands, as the list's state badge says it. */
export type UserState = 'active' | 'pending' | 'expired' | 'cancelled' | 'disabled';

/** A disabled user is that first; otherwise an open invitation's state, else active. */
export function userState(user: Pick<AccountUser, 'disabled' | 'invitation'>): UserState {
  if (user.disabled) return 'disabled';
  return user.invitation ?? 'active';
}

export const STATE_COLORS: Record<UserState, string> = {
  active: 'green',
  pending: 'blue',
  expired: 'orange',
  cancelled: 'gray',
  disabled: 'red',
};

/** The calls on a user that the actions menu offers (besides opening its permissions). */
export const USER_ACTIONS = [
  'invitationResend',
  'invitationCancel',
  'enable',
  'disable',
  'resetTwoFactor',
  'endSessions',
  'remove',
] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** The actions that take access away: each asks first. */
export const CONFIRMED_ACTIONS: ReadonlySet<UserAction> = new Set([
  'invitationCancel',
  'disable',
  'resetTwoFactor',
  'endSessions',
  'remove',
]);

/**
 * What may be done to a user, in the menu's order. The caller's own access is not theirs to
 * change here (the server refuses it too): no disable, reset, end sessions or remove on `self`.
 * An invitation can be sent again while there is one; cancelled only while it could still be used.
 */
export function actionsFor(user: AccountUser): UserAction[] {
  const actions: UserAction[] = [];
  if (user.invitation !== null) {
    actions.push('invitationResend');
    if (user.invitation !== 'cancelled') actions.push('invitationCancel');
  }
  if (!user.self) {
    actions.push(user.disabled ? 'enable' : 'disable');
    if (user.twoFactor) actions.push('resetTwoFactor');
    actions.push('endSessions', 'remove');
  }
  return actions;
}
