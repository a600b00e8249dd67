import type { DnsImportAxfrData, DnsImportData, DnsImportOptionsData } from '@panel247/contract/dns-import';
import type { DnsImportConflictChoice, DnsImportMode } from '@panel247/contract/dns-rules';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

export interface DnsImportInput {
  text: string;
  mode: DnsImportMode;
  /** A file's SPF or DMARC record beside a different one in the zone: keep the zone's, or replace it. */
  conflicts: DnsImportConflictChoice;
}

/** What the zone file would do to the zone; nothing changes. */
export async function previewDnsImport(serviceId: number, input: DnsImportInput): Promise<DnsImportData> {
  return (await apiCall<DnsImportData>(DNS_API.importPreview(serviceId), { ...input }, { method: 'POST' })).data;
}

/** Imports the zone file: all of it or, if the DNS server refuses, nothing. */
export async function applyDnsImport(serviceId: number, input: DnsImportInput) {
  const { data, system } = await apiCall<DnsImportData>(
    DNS_API.importApply(serviceId),
    { ...input },
    { method: 'POST' },
  );
  return { data, info: system.info };
}

export function usePreviewDnsImport(serviceId: number) {
  return useMutation({ mutationFn: (input: DnsImportInput) => previewDnsImport(serviceId, input) });
}

export function useApplyDnsImport(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DnsImportInput) => applyDnsImport(serviceId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}

/** What the import offers (AXFR or not, the limits); asked when the dialog opens. */
export function useDnsImportOptions(serviceId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...dnsQueryKey(serviceId), 'import-options'],
    queryFn: async () =>
      (await apiCall<DnsImportOptionsData>(DNS_API.importOptions(serviceId), undefined, { method: 'GET' })).data,
    enabled,
    staleTime: 60_000,
  });
}

/** The zone as another name server serves it (AXFR), as text to preview. */
export function useReadDnsZoneByAxfr(serviceId: number) {
  return useMutation({
    mutationFn: async (server: string) =>
      (await apiCall<DnsImportAxfrData>(DNS_API.importAxfr(serviceId), { server }, { method: 'POST' })).data.text,
  });
}
