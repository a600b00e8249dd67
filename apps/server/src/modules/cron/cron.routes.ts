import {
  cronListDataSchema,
  cronParamsSchema,
  cronPreviewDataSchema,
  cronPreviewParamsSchema,
  cronRunsDataSchema,
  cronSaveParamsSchema,
  cronTaskParamsSchema,
  cronTaskSaveParamsSchema,
} from '@panel247/contract/cron';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { CronService } from './cron.service.ts';

const tasksDataSchema = cronListDataSchema.pick({ tasks: true });

/** The Scheduled tasks view: reads answer GET and POST, changes POST. */
export function registerCronRoutes(api: ApiRouter, cron: CronService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  api.session(
    { method: both, url: 'service/:id/cron/list/', params: cronParamsSchema, data: cronListDataSchema },
    async ({ actor, params, language }) => ({ data: await cron.list(actor, params.id, language) }),
  );
  api.session(
    { method: both, url: 'service/:id/cron/preview/', params: cronPreviewParamsSchema, data: cronPreviewDataSchema },
    async ({ actor, params, language }) => ({ data: await cron.preview(actor, params.id, params.schedule, language) }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/cron/create/', params: cronSaveParamsSchema, data: tasksDataSchema },
    async ({ actor, params, language }) => ({
      data: { tasks: await cron.create(actor, params.id, params, language) },
      info: ['cron.created'],
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/cron/:taskId/save/', params: cronTaskSaveParamsSchema, data: tasksDataSchema },
    async ({ actor, params, language }) => ({
      data: { tasks: await cron.save(actor, params.id, params.taskId, params, language) },
      info: ['cron.saved'],
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/cron/:taskId/delete/', params: cronTaskParamsSchema, data: tasksDataSchema },
    async ({ actor, params, language }) => ({
      data: { tasks: await cron.remove(actor, params.id, params.taskId, language) },
      info: ['cron.deleted'],
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/cron/:taskId/run/', params: cronTaskParamsSchema, data: z.object({}) },
    async ({ actor, params }) => {
      await cron.runNow(actor, params.id, params.taskId);
      return { data: {}, info: ['cron.run_started'] };
    },
  );
  api.session(
    { method: both, url: 'service/:id/cron/:taskId/runs/', params: cronTaskParamsSchema, data: cronRunsDataSchema },
    async ({ actor, params }) => ({ data: { runs: await cron.runs(actor, params.id, params.taskId) } }),
  );
}
