import type { ConsoleService } from '@panel247/contract/console';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleCall } from './console-api';
import { plansQueryKey } from './list-plans';
import { servicesQueryKey } from './list-services';

/** The changes of one service that answer it as it now is: suspend, unsuspend, another plan. */
export type ServiceChange =
  | { kind: 'suspend'; domain: string; reason: string }
  | { kind: 'unsuspend'; domain: string }
  | { kind: 'plan'; domain: string; plan: string };

export async function changeService(change: ServiceChange) {
  const [path, params] =
    change.kind === 'suspend'
      ? [CONSOLE_API.suspend(change.domain), { reason: change.reason }]
      : change.kind === 'plan'
        ? [CONSOLE_API.plan(change.domain), { plan: change.plan }]
        : [CONSOLE_API.unsuspend(change.domain), {}];
  const { data, system } = await consoleCall<{ service: ConsoleService }>(path, params, { method: 'POST' });
  return { service: data.service, info: system.info };
}

export function useChangeService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeService,
    onSuccess: (_answer, change) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: servicesQueryKey }),
        // a plan's count of services moved
        change.kind === 'plan' ? queryClient.invalidateQueries({ queryKey: plansQueryKey }) : null,
      ]),
  });
}
