import type { consoleBrandsDataSchema } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export type ConsoleBrand = z.infer<typeof consoleBrandsDataSchema>['brands'][number];

/** The brands' list, and (under it) each brand as its editor reads it: a saved brand refreshes both. */
export const brandsQueryKey = [...consoleQueryKey, 'brands'] as const;

export async function listBrands(signal?: AbortSignal): Promise<ConsoleBrand[]> {
  const data = await consoleApi<{ brands: ConsoleBrand[] }>(CONSOLE_API.brands, undefined, { method: 'GET', signal });
  return data.brands;
}

/** The brands: an account is made in one (the new account's form); the brands page lists them. */
export function useBrands(enabled: boolean) {
  return useQuery({
    queryKey: [...brandsQueryKey, 'list'],
    queryFn: ({ signal }) => listBrands(signal),
    enabled,
    retry: consoleRetry,
  });
}
