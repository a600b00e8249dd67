import type {
  ConsoleBrand,
  consoleBrandSaveParamsSchema,
  consoleLegalSaveParamsSchema,
} from '@panel247/contract/console';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleCall } from './console-api';
import { brandQueryKey } from './get-brand';
import { brandsQueryKey } from './list-brands';

/** What the brand's form sends: every field as text, the switches '0' or '1' (the slug is in the path). */
export type BrandPayload = { [Field in keyof Omit<z.input<typeof consoleBrandSaveParamsSchema>, 'slug'>]-?: string };
/** One language's privacy policy ('' title: the panel's default text). */
export type LegalPayload = { [Field in keyof Omit<z.input<typeof consoleLegalSaveParamsSchema>, 'slug'>]-?: string };

export type BrandChange =
  | { kind: 'brand'; slug: string; payload: BrandPayload }
  | { kind: 'legal'; slug: string; payload: LegalPayload };

export async function saveBrand(change: BrandChange) {
  const path = change.kind === 'brand' ? CONSOLE_API.brandSave(change.slug) : CONSOLE_API.brandLegal(change.slug);
  const { data, system } = await consoleCall<{ brand: ConsoleBrand }>(path, change.payload, { method: 'POST' });
  return { brand: data.brand, info: system.info };
}

/** The answer is the brand as now saved: the editor shows it at once; the list (its names) is read again. */
export function useSaveBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBrand,
    onSuccess: ({ brand }) => {
      queryClient.setQueryData(brandQueryKey(brand.slug), brand);
      return queryClient.invalidateQueries({ queryKey: [...brandsQueryKey, 'list'] });
    },
  });
}
