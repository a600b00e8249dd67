import { idParam } from '@panel247/contract/fields';
import { permissionListDataSchema, permissionSetDataSchema } from '@panel247/contract/permissions';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { PermissionService } from './permission.service.ts';

export function registerPermissionRoutes(api: ApiRouter, permissions: PermissionService) {
  api.session(
    // The shell's menus load it even while a second factor must be set up first.
    {
      method: 'GET',
      url: 'permission/list/',
      params: z.object({}),
      data: permissionListDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor }) => {
      // The entry lives while the user's permissions stay the same: the answer's ETag and
      // compressed forms live with it (a permissions.changed event drops it).
      const entry = await permissions.listWithJson(actor);
      return { data: entry.data, dataJson: entry.json, unchangedWhile: entry };
    },
  );

  api.session(
    {
      method: ['POST', 'GET'],
      url: 'permission/:id/',
      params: z.object({ id: idParam }),
      data: permissionSetDataSchema,
    },
    async ({ actor, params }) => ({ data: await permissions.permissionSet(actor, params.id) }),
  );
}
