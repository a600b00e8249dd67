import type { AliasData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey } from './list-mail';

export async function saveAlias(serviceId: number, aliasId: number, targets: string[]) {
  const { data, system } = await apiCall<AliasData>(
    MAIL_API.aliasSave(serviceId, aliasId),
    { target: targets },
    { method: 'POST' },
  );
  return { alias: data.alias, info: system.info };
}

/** The pages are asked for again, with the alias's new targets. */
export function useSaveAlias(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ aliasId, targets }: { aliasId: number; targets: string[] }) =>
      saveAlias(serviceId, aliasId, targets),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
