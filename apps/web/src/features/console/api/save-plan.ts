import type { ConsolePlan, ConsolePlanSaveParams } from '@panel247/contract/console';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleCall } from './console-api';
import { plansQueryKey } from './list-plans';

/** What the form sends: every field as typed ('' is no limit); `create` '1' for a new plan. */
export type PlanPayload = { [Field in keyof ConsolePlanSaveParams]: string };

export async function savePlan(payload: PlanPayload) {
  const { data, system } = await consoleCall<{ plan: ConsolePlan }>(CONSOLE_API.planSave, payload, { method: 'POST' });
  return { plan: data.plan, info: system.info };
}

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansQueryKey }),
  });
}
