import type { ConsoleService } from '@panel247/contract/console';
import type { ProviderTermination } from '@panel247/contract/provider';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleCall } from './console-api';
import { plansQueryKey } from './list-plans';
import { servicesQueryKey } from './list-services';

export async function terminateService(service: Pick<ConsoleService, 'domain'>) {
  const { data, system } = await consoleCall<{ termination: ProviderTermination }>(
    CONSOLE_API.terminate(service.domain),
    undefined,
    { method: 'POST' },
  );
  return { termination: data.termination, info: system.info };
}

/** The list and the plans' counts are read again whatever the termination's state. */
export function useTerminateService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: terminateService,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: servicesQueryKey }),
        queryClient.invalidateQueries({ queryKey: plansQueryKey }),
      ]),
  });
}
