import {
  providerAccountCreateParamsSchema,
  providerAccountDataSchema,
  providerLoginLinkDataSchema,
  providerNoParamsSchema,
  providerPasswordParamsSchema,
  providerPingDataSchema,
  providerPlanParamsSchema,
  providerServiceDataSchema,
  providerServiceParamsSchema,
  providerServiceUsageDataSchema,
  providerSuspendParamsSchema,
  providerTerminationDataSchema,
  providerUsageDataSchema,
} from '@panel247/contract/provider';
import type { ApiRouter } from '../../http/api-route.ts';
import type { ProvisioningService } from './provisioning.service.ts';

/**
 * The provisioning API under `{base}provider/`: the provider's token on every call, an
 * Idempotency-Key on the creating one (a new account). The others set a state (suspended, a plan,
 * a password) that sending twice leaves as once, and a key kept for them would answer a later
 * repeat of an earlier action (suspend, unsuspend, suspend) from the record instead of doing it.
 * A service is named by its domain.
 */
export function registerProviderRoutes(api: ApiRouter, provisioning: ProvisioningService, basePath: string) {
  api.provider(
    { method: 'GET', url: 'provider/ping/', params: providerNoParamsSchema, data: providerPingDataSchema },
    async () => ({ data: { panel: 'Panel247' as const } }),
  );
  api.provider(
    {
      method: 'POST',
      url: 'provider/account/create/',
      params: providerAccountCreateParamsSchema,
      data: providerAccountDataSchema,
      idempotent: true,
      subject: (params) => params.domain,
    },
    async ({ params }) => ({ data: await provisioning.createAccount(params) }),
  );
  api.provider(
    {
      method: 'POST',
      url: 'provider/service/:domain/suspend/',
      params: providerSuspendParamsSchema,
      data: providerServiceDataSchema,
    },
    async ({ params }) => ({ data: { service: await provisioning.suspend(params.domain, params.reason) } }),
  );
  api.provider(
    {
      method: 'POST',
      url: 'provider/service/:domain/unsuspend/',
      params: providerServiceParamsSchema,
      data: providerServiceDataSchema,
    },
    async ({ params }) => ({ data: { service: await provisioning.unsuspend(params.domain) } }),
  );
  api.provider(
    {
      method: 'POST',
      url: 'provider/service/:domain/terminate/',
      params: providerServiceParamsSchema,
      data: providerTerminationDataSchema,
    },
    async ({ params }) => ({ data: { termination: await provisioning.terminate(params.domain) } }),
  );
  api.provider(
    {
      method: 'POST',
      url: 'provider/service/:domain/plan/',
      params: providerPlanParamsSchema,
      data: providerServiceDataSchema,
    },
    async ({ params }) => ({ data: { service: await provisioning.changePlan(params.domain, params.plan) } }),
  );
  api.provider(
    {
      method: 'POST',
      url: 'provider/service/:domain/password/',
      params: providerPasswordParamsSchema,
      data: providerServiceDataSchema,
    },
    async ({ params }) => ({ data: { service: await provisioning.changePassword(params.domain, params.password) } }),
  );
  api.provider(
    {
      method: 'POST',
      url: 'provider/service/:domain/login-link/',
      params: providerServiceParamsSchema,
      data: providerLoginLinkDataSchema,
    },
    async ({ params, request }) => ({ data: await provisioning.loginLink(params.domain, request.host, basePath) }),
  );
  api.provider(
    {
      method: 'GET',
      url: 'provider/service/:domain/usage/',
      params: providerServiceParamsSchema,
      data: providerServiceUsageDataSchema,
    },
    async ({ params }) => ({ data: { usage: await provisioning.usage(params.domain) } }),
  );
  api.provider(
    { method: 'GET', url: 'provider/usage/', params: providerNoParamsSchema, data: providerUsageDataSchema },
    async () => ({ data: { services: await provisioning.usageOfAll() } }),
  );
}
