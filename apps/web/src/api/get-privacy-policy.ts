import type { PrivacyPolicyData } from '@panel247/contract/legal';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client';

export const privacyPolicyQueryKey = (language: string) => ['legal', 'privacy-policy', language] as const;

export function getPrivacyPolicy(): Promise<PrivacyPolicyData> {
  return api<PrivacyPolicyData>(API.legalPrivacyPolicy);
}

export function usePrivacyPolicy(language: string, enabled = true) {
  return useQuery({
    queryKey: privacyPolicyQueryKey(language),
    queryFn: getPrivacyPolicy,
    enabled,
    staleTime: 300_000,
  });
}
