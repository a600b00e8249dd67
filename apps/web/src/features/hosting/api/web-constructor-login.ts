import type { WebConstructorLoginData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostingQueryKey } from './get-hosting-service';

/** `subdomain`: '*' (the main domain) or a subdomain label; answers the builder's signed URL. */
export async function webConstructorLogin(serviceId: number, subdomain: string): Promise<string> {
  return (
    await api<WebConstructorLoginData>(HOSTING_API.webConstructorLogin(serviceId), { subdomain }, { method: 'POST' })
  ).url;
}

/** A fresh URL each time (its token is short-lived); the chosen site becomes the builder's `selected`. */
export function useWebConstructorLogin(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subdomain: string) => webConstructorLogin(serviceId, subdomain),
    onSuccess: (_url, subdomain) =>
      queryClient.setQueryData([...hostingQueryKey(serviceId), 'webconstructor'], subdomain),
  });
}
