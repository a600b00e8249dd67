import { idParam } from '@panel247/contract/fields';
import { permissionListDataSchema, permissionSetDataSchema } from '@panel247/contract/permissions';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { PermissionService } from './permission.service.ts';

export function registerPermissionRoutes(api: ApiRouter, permissions: PermissionService) {
  api.session(
    { method: 'GET', url: 'permission/list/', params: z.object({}), data: permissionListDataSchema },
    async ({ actor }) => {
      const { data, json } = await permissions.listWithJson(actor);
      return { data, dataJson: json };
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
