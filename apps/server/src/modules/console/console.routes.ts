import {
  consoleAccountCreateParamsSchema,
  consoleBrandsDataSchema,
  consoleInfoDataSchema,
  consoleLoginDataSchema,
  consoleLoginParamsSchema,
  consoleNoParamsSchema,
  consolePlanChangeParamsSchema,
  consolePlanDataSchema,
  consolePlanNameParamsSchema,
  consolePlanSaveParamsSchema,
  consolePlansDataSchema,
  consoleServiceDataSchema,
  consoleServiceParamsSchema,
  consoleServicesDataSchema,
  consoleServicesParamsSchema,
  consoleSuspendParamsSchema,
  consoleTerminationDataSchema,
} from '@panel247/contract/console';
import type { ApiRouter } from '../../http/api-route.ts';
import type { ProvisioningService } from '../provider/provisioning.service.ts';
import type { ConsoleServices } from './console.service.ts';
import type { StaffAuthService } from './staff-auth.service.ts';

/**
 * The provider's console under `{base}console/`: a staff session on every call but the sign-in.
 * What changes a service is the provisioning API's own code (ProvisioningService).
 */
export function registerConsoleRoutes(
  api: ApiRouter,
  parts: { staff: StaffAuthService; console: ConsoleServices; provisioning: ProvisioningService },
) {
  const { staff, console, provisioning } = parts;
  api.public(
    { method: 'POST', url: 'console/login/', params: consoleLoginParamsSchema, data: consoleLoginDataSchema },
    async ({ call, params }) => ({ data: await staff.login(call, params) }),
  );
  api.staff({ method: 'POST', url: 'console/logout/', params: consoleNoParamsSchema }, async ({ call, staff: who }) => {
    await staff.logout(call, who);
    return { data: {} };
  });
  api.staff(
    { method: 'GET', url: 'console/info/', params: consoleNoParamsSchema, data: consoleInfoDataSchema },
    async ({ staff: who }) => ({ data: { username: who.username } }),
  );
  api.staff(
    { method: 'GET', url: 'console/plans/list/', params: consoleNoParamsSchema, data: consolePlansDataSchema },
    async () => ({ data: { plans: await console.listPlans() } }),
  );
  api.staff(
    { method: 'POST', url: 'console/plans/save/', params: consolePlanSaveParamsSchema, data: consolePlanDataSchema },
    async ({ params }) => ({ data: { plan: await console.savePlan(params) } }),
  );
  api.staff(
    { method: 'POST', url: 'console/plans/remove/', params: consolePlanNameParamsSchema },
    async ({ params }) => {
      await console.removePlan(params.name);
      return { data: {} };
    },
  );
  api.staff(
    { method: 'GET', url: 'console/brands/list/', params: consoleNoParamsSchema, data: consoleBrandsDataSchema },
    async () => ({ data: { brands: await console.brands() } }),
  );
  api.staff(
    {
      method: 'GET',
      url: 'console/services/list/',
      params: consoleServicesParamsSchema,
      data: consoleServicesDataSchema,
    },
    async ({ params }) => ({ data: await console.services(params) }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/accounts/create/',
      params: consoleAccountCreateParamsSchema,
      data: consoleServiceDataSchema,
    },
    async ({ params }) => ({
      data: { service: await console.service((await provisioning.createAccount(params)).service) },
    }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/services/:domain/suspend/',
      params: consoleSuspendParamsSchema,
      data: consoleServiceDataSchema,
    },
    async ({ params }) => ({
      data: { service: await console.service(await provisioning.suspend(params.domain, params.reason)) },
    }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/services/:domain/unsuspend/',
      params: consoleServiceParamsSchema,
      data: consoleServiceDataSchema,
    },
    async ({ params }) => ({ data: { service: await console.service(await provisioning.unsuspend(params.domain)) } }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/services/:domain/plan/',
      params: consolePlanChangeParamsSchema,
      data: consoleServiceDataSchema,
    },
    async ({ params }) => ({
      data: { service: await console.service(await provisioning.changePlan(params.domain, params.plan)) },
    }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/services/:domain/terminate/',
      params: consoleServiceParamsSchema,
      data: consoleTerminationDataSchema,
    },
    async ({ params }) => ({ data: { termination: await provisioning.terminate(params.domain) } }),
  );
}
