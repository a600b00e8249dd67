import {
  accountUserCreateDataSchema,
  accountUserCreateParamsSchema,
  accountUserDataSchema,
  accountUserManagerParamsSchema,
  accountUserParamsSchema,
  accountUserPermissionsCopyDataSchema,
  accountUserPermissionsCopyParamsSchema,
  accountUserPermissionsDataSchema,
  accountUserPermissionsParamsSchema,
  accountUserPermissionsSetParamsSchema,
  accountUsersListDataSchema,
  accountUsersListParamsSchema,
  invitationAcceptDataSchema,
  invitationAcceptParamsSchema,
  invitationCheckDataSchema,
  invitationCheckParamsSchema,
} from '@panel247/contract/account-users';
import type { Language } from '@panel247/contract/constants';
import { emptyDataSchema } from '@panel247/contract/envelope';
import { USERS_API } from '@panel247/contract/routes';
import type { ApiRouter } from '../../http/api-route.ts';
import type { Actor } from '../auth/actor.ts';
import type { ClientCall } from '../auth/client-call.ts';
import type { AccountUsersService } from './account-users.service.ts';
import type { AccountUsersParts } from './account-users-parts.ts';

/** A call on one user that answers nothing but its message. */
type UserAction = (
  users: AccountUsersService,
  actor: Actor,
  call: ClientCall,
  id: number,
  language: Language,
) => Promise<void>;

const ACTIONS: { url: string; info: string; run: UserAction }[] = [
  {
    url: USERS_API.disable(':id'),
    info: 'users.disabled',
    run: (users, actor, call, id, language) => users.disable(actor, call, id, language),
  },
  {
    url: USERS_API.enable(':id'),
    info: 'users.enabled',
    run: (users, actor, call, id) => users.enable(actor, call, id),
  },
  {
    url: USERS_API.resetTwoFactor(':id'),
    info: 'users.twofactor_reset',
    run: (users, actor, call, id, language) => users.resetSecondFactor(actor, call, id, language),
  },
  {
    url: USERS_API.endSessions(':id'),
    info: 'users.sessions_ended',
    run: (users, actor, call, id) => users.endSessions(actor, call, id),
  },
  {
    url: USERS_API.remove(':id'),
    info: 'users.removed',
    run: (users, actor, call, id) => users.remove(actor, call, id),
  },
  {
    url: USERS_API.invitationResend(':id'),
    info: 'users.invitation_sent',
    run: (users, actor, call, id, language) => users.resendInvitation(actor, call, id, language),
  },
  {
    url: USERS_API.invitationCancel(':id'),
    info: 'users.invitation_cancelled',
    run: (users, actor, call, id) => users.cancelInvitation(actor, call, id),
  },
];

export function registerAccountUsersRoutes(api: ApiRouter, parts: AccountUsersParts) {
  const { users, permissions, invitations } = parts;

  api.session(
    {
      method: ['GET', 'POST'],
      url: USERS_API.list,
      params: accountUsersListParamsSchema,
      data: accountUsersListDataSchema,
    },
    async ({ actor, params }) => ({ data: await users.list(actor, params) }),
  );

  api.session(
    { method: 'POST', url: USERS_API.create, params: accountUserCreateParamsSchema, data: accountUserCreateDataSchema },
    async ({ actor, call, params, language }) => ({
      data: await users.create(actor, call, params, language),
      info: ['users.invitation_sent'],
    }),
  );

  api.session(
    {
      method: ['GET', 'POST'],
      url: USERS_API.user(':id'),
      params: accountUserParamsSchema,
      data: accountUserDataSchema,
    },
    async ({ actor, params }) => ({ data: { user: await users.get(actor, params.id) } }),
  );

  api.session(
    { method: 'POST', url: USERS_API.manager(':id'), params: accountUserManagerParamsSchema, data: emptyDataSchema },
    async ({ actor, call, params }) => {
      await users.setManageUsers(actor, call, params.id, params.manageUsers);
      return { data: {}, info: ['users.saved'] };
    },
  );

  for (const action of ACTIONS) {
    api.session(
      { method: 'POST', url: action.url, params: accountUserParamsSchema, data: emptyDataSchema },
      async ({ actor, call, params, language }) => {
        await action.run(users, actor, call, params.id, language);
        return { data: {}, info: [action.info] };
      },
    );
  }

  api.session(
    {
      method: ['GET', 'POST'],
      url: USERS_API.permissions(':id'),
      params: accountUserPermissionsParamsSchema,
      data: accountUserPermissionsDataSchema,
    },
    async ({ actor, params }) => ({ data: await permissions.page(actor, params) }),
  );

  api.session(
    {
      method: 'POST',
      url: USERS_API.permissionsSet(':id'),
      params: accountUserPermissionsSetParamsSchema,
      data: emptyDataSchema,
    },
    async ({ actor, call, params }) => {
      await permissions.set(actor, call, params);
      return { data: {}, info: ['users.saved'] };
    },
  );

  api.session(
    {
      method: 'POST',
      url: USERS_API.permissionsCopy(':id'),
      params: accountUserPermissionsCopyParamsSchema,
      data: accountUserPermissionsCopyDataSchema,
    },
    async ({ actor, call, params }) => ({ data: await permissions.copy(actor, call, params), info: ['users.saved'] }),
  );

  // The invited user's side: no session yet; the link's token is the only key.
  api.public(
    {
      method: 'POST',
      url: USERS_API.invitationCheck,
      params: invitationCheckParamsSchema,
      data: invitationCheckDataSchema,
    },
    async ({ params }) => ({ data: await invitations.check(params.token) }),
  );

  api.public(
    {
      method: 'POST',
      url: USERS_API.invitationAccept,
      params: invitationAcceptParamsSchema,
      data: invitationAcceptDataSchema,
    },
    async ({ call, params }) => ({
      data: await invitations.accept(call, params.token, params.password),
      info: ['users.password_set'],
    }),
  );
}
