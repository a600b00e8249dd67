import type { CountryData, CountryParams } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Params } from '../../../lib/api-client';

/** Each parameter only when non-empty (spec section 7); names come in the request's language. */
export function lookupAddress(query: CountryParams, signal?: AbortSignal): Promise<CountryData> {
  const params: Params = {};
  if (query.country) params.country = query.country;
  if (query.state) params.state = query.state;
  if (query.city) params.city = query.city;
  if (query.postal_code) params.postal_code = query.postal_code;
  return api<CountryData>(DOMAIN_API.country, params, { method: 'POST', signal });
}

export function useAddressLookup(query: CountryParams, language: string, enabled: boolean) {
  return useQuery({
    queryKey: ['address-lookup', language, query] as const,
    queryFn: ({ signal }) => lookupAddress(query, signal),
    enabled,
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
  });
}
