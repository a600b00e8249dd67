import type { ConsoleService, consoleAccountCreateParamsSchema } from '@panel247/contract/console';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleCall } from './console-api';
import { accountsQueryKey } from './list-accounts';
import { plansQueryKey } from './list-plans';
import { servicesQueryKey } from './list-services';

/** Domain, owner's user name and password, e-mail, plan ('' the default one), brand ('' the default one). */
export type AccountInput = Required<z.input<typeof consoleAccountCreateParamsSchema>>;

export async function createAccount(input: AccountInput) {
  const { data, system } = await consoleCall<{ service: ConsoleService }>(CONSOLE_API.accountCreate, input, {
    method: 'POST',
  });
  return { service: data.service, info: system.info };
}

/** A new service lands where the server's sort puts it; its plan counts one service more; a new account. */
export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAccount,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: servicesQueryKey }),
        queryClient.invalidateQueries({ queryKey: plansQueryKey }),
        queryClient.invalidateQueries({ queryKey: accountsQueryKey }),
      ]),
  });
}
