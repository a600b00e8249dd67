import type { AliasCreateParams, AliasData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey } from './list-mail';

/** `name` is the local part ('' takes every address of the domain); `target` one address a row. */
export type AliasCreateInput = Omit<AliasCreateParams, 'id'>;

export async function createAlias(serviceId: number, input: AliasCreateInput) {
  const { data, system } = await apiCall<AliasData>(
    MAIL_API.aliasCreate(serviceId),
    // `target` repeats once per row
    { name: input.name, target: input.target },
    { method: 'POST' },
  );
  return { alias: data.alias, info: system.info };
}

/** The pages are asked for again: the server places the new alias. */
export function useCreateAlias(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AliasCreateInput) => createAlias(serviceId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
