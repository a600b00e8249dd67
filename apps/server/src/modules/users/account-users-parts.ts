import type { AccountUsersService } from './account-users.service.ts';
import type { UserInvitations } from './invitations.ts';
import type { UserPermissions } from './user-permissions.ts';

/** The account users' services, as the composition makes them and the routes use them. */
export interface AccountUsersParts {
  users: AccountUsersService;
  permissions: UserPermissions;
  invitations: UserInvitations;
}
