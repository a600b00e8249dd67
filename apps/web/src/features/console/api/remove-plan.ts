import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleCall } from './console-api';
import { plansQueryKey } from './list-plans';

export async function removePlan(name: string) {
  return (await consoleCall(CONSOLE_API.planRemove, { name }, { method: 'POST' })).system.info;
}

/** A refusal (the plan has services) also reads the list again: someone may have changed it. */
export function useRemovePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePlan,
    onSettled: () => queryClient.invalidateQueries({ queryKey: plansQueryKey }),
  });
}
