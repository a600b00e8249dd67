import type { Alias, AliasData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { aliasesQueryKey } from './list-aliases';

export async function saveAlias(serviceId: number, aliasId: number, targets: string[]) {
  const { data, system } = await apiCall<AliasData>(
    MAIL_API.aliasSave(serviceId, aliasId),
    { target: targets },
    { method: 'POST' },
  );
  return { alias: data.alias, info: system.info };
}

/** The alias's row is replaced by the one the server returns. */
export function useSaveAlias(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ aliasId, targets }: { aliasId: number; targets: string[] }) =>
      saveAlias(serviceId, aliasId, targets),
    onSuccess: ({ alias }) =>
      queryClient.setQueryData<Alias[]>(aliasesQueryKey(serviceId), (list) =>
        list?.map((item) => (item.id === alias.id ? alias : item)),
      ),
  });
}
