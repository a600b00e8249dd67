import {
  consoleAccountCreateParamsSchema,
  consoleAccountsDataSchema,
  consoleAccountsParamsSchema,
  consoleAccountUsersDataSchema,
  consoleAccountUsersParamsSchema,
  consoleActivityDataSchema,
  consoleActivityParamsSchema,
  consoleBrandDataSchema,
  consoleBrandParamsSchema,
  consoleBrandSaveParamsSchema,
  consoleBrandsDataSchema,
  consoleInfoDataSchema,
  consoleJobDataSchema,
  consoleJobParamsSchema,
  consoleLegalSaveParamsSchema,
  consoleLoginDataSchema,
  consoleLoginParamsSchema,
  consoleNoParamsSchema,
  consoleOutboxDataSchema,
  consoleOutboxParamsSchema,
  consolePlanChangeParamsSchema,
  consolePlanDataSchema,
  consolePlanNameParamsSchema,
  consolePlanSaveParamsSchema,
  consolePlansDataSchema,
  consoleServersDataSchema,
  consoleServiceDataSchema,
  consoleServiceParamsSchema,
  consoleServicesDataSchema,
  consoleServicesParamsSchema,
  consoleSuspendParamsSchema,
  consoleTerminationDataSchema,
  consoleUserManagerParamsSchema,
  consoleWorkDataSchema,
  consoleWorkParamsSchema,
} from '@panel247/contract/console';
import type { ApiRouter } from '../../http/api-route.ts';
import type { ProvisioningService } from '../provider/provisioning.service.ts';
import type { ConsoleServices } from './console.service.ts';
import type { ConsoleBrands } from './console-brands.service.ts';
import type { ConsoleOversight } from './console-oversight.service.ts';
import type { StaffAuthService } from './staff-auth.service.ts';

/**
 * The provider's console under `{base}console/`: a staff session on every call but the sign-in.
 * What changes a service is the provisioning API's own code (ProvisioningService).
 */
export function registerConsoleRoutes(
  api: ApiRouter,
  parts: {
    staff: StaffAuthService;
    console: ConsoleServices;
    oversight: ConsoleOversight;
    brands: ConsoleBrands;
    provisioning: ProvisioningService;
  },
) {
  const { staff, console, oversight, brands, provisioning } = parts;
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
  api.staff(
    {
      method: 'GET',
      url: 'console/accounts/list/',
      params: consoleAccountsParamsSchema,
      data: consoleAccountsDataSchema,
    },
    async ({ params }) => ({ data: await oversight.accounts(params) }),
  );
  api.staff(
    {
      method: 'GET',
      url: 'console/accounts/:domain/users/',
      params: consoleAccountUsersParamsSchema,
      data: consoleAccountUsersDataSchema,
    },
    async ({ params }) => ({ data: { users: await oversight.users(params.domain) } }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/accounts/:domain/users/:username/manager/',
      params: consoleUserManagerParamsSchema,
      data: consoleAccountUsersDataSchema,
    },
    async ({ params }) => {
      await console.setManageUsers(params.domain, params.username, params.manageUsers);
      return { data: { users: await oversight.users(params.domain) }, info: ['users.saved'] };
    },
  );
  api.staff(
    { method: 'GET', url: 'console/work/list/', params: consoleWorkParamsSchema, data: consoleWorkDataSchema },
    async ({ params }) => ({ data: await oversight.work(params.state) }),
  );
  api.staff(
    { method: 'POST', url: 'console/work/:id/retry/', params: consoleJobParamsSchema, data: consoleJobDataSchema },
    async ({ params }) => ({ data: { job: await oversight.retry(params.id) } }),
  );
  api.staff(
    { method: 'GET', url: 'console/outbox/list/', params: consoleOutboxParamsSchema, data: consoleOutboxDataSchema },
    async ({ params }) => ({ data: { messages: await oversight.outbox(params.unsent === '1') } }),
  );
  api.staff(
    {
      method: 'GET',
      url: 'console/activity/list/',
      params: consoleActivityParamsSchema,
      data: consoleActivityDataSchema,
    },
    async ({ params }) => ({ data: await oversight.activity(params.page, params.filter) }),
  );
  api.staff(
    { method: 'GET', url: 'console/servers/list/', params: consoleNoParamsSchema, data: consoleServersDataSchema },
    async () => ({ data: await oversight.servers() }),
  );
  api.staff(
    { method: 'GET', url: 'console/brands/:slug/', params: consoleBrandParamsSchema, data: consoleBrandDataSchema },
    async ({ params }) => ({ data: { brand: await brands.get(params.slug) } }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/brands/:slug/save/',
      params: consoleBrandSaveParamsSchema,
      data: consoleBrandDataSchema,
    },
    async ({ params: { slug, ...changes } }) => ({ data: { brand: await brands.save(slug, changes) } }),
  );
  api.staff(
    {
      method: 'POST',
      url: 'console/brands/:slug/legal/',
      params: consoleLegalSaveParamsSchema,
      data: consoleBrandDataSchema,
    },
    async ({ params: { slug, ...text } }) => ({ data: { brand: await brands.saveLegal(slug, text) } }),
  );
}
