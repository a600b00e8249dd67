import type { ConsoleBrand } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import { CONSOLE_API, consoleApi, consoleRetry } from './console-api';
import { brandsQueryKey } from './list-brands';

export const brandQueryKey = (slug: string) => [...brandsQueryKey, 'one', slug] as const;

export async function getBrand(slug: string, signal?: AbortSignal): Promise<ConsoleBrand> {
  return (await consoleApi<{ brand: ConsoleBrand }>(CONSOLE_API.brand(slug), undefined, { method: 'GET', signal }))
    .brand;
}

/** A brand as its editor shows it: its look, its contact and its privacy policy per language. */
export function useBrand(slug: string) {
  return useQuery({
    queryKey: brandQueryKey(slug),
    queryFn: ({ signal }) => getBrand(slug, signal),
    retry: consoleRetry,
  });
}
