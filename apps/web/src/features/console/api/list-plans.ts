import type { ConsolePlan } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export const plansQueryKey = [...consoleQueryKey, 'plans'] as const;

export async function listPlans(signal?: AbortSignal): Promise<ConsolePlan[]> {
  return (await consoleApi<{ plans: ConsolePlan[] }>(CONSOLE_API.plans, undefined, { method: 'GET', signal })).plans;
}

/** Every plan (a provider has a handful): the plans page and the plan choices of the services' dialogs. */
export function usePlans() {
  return useQuery({ queryKey: plansQueryKey, queryFn: ({ signal }) => listPlans(signal), retry: consoleRetry });
}
