import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { DnsChangeData, DnsChangeMadeData, DnsHistoryData } from '@panel247/contract/dns-history';
import { DNS_API } from '@panel247/contract/routes';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../../../lib/api-client';
import { saveApiFile } from '../../../lib/save-file';
import { dnsQueryKey } from './list-dns-records';

/** Under the zone's key: every change of the zone (and a revert) refreshes the history too. */
const historyKey = (serviceId: number) => [...dnsQueryKey(serviceId), 'history'] as const;

/** One page of the zone's change sets, newest first. */
export function useDnsHistory(serviceId: number, page: number) {
  return useQuery({
    queryKey: [...historyKey(serviceId), 'list', page],
    queryFn: ({ signal }) =>
      api<DnsHistoryData>(DNS_API.history(serviceId), { page, pageSize: LIST_PAGE_SIZE }, { method: 'GET', signal }),
    placeholderData: keepPreviousData,
  });
}

/** One change set and one page of its RRsets before and after. */
export function useDnsChange(serviceId: number, changeId: number | null, page: number) {
  return useQuery({
    queryKey: [...historyKey(serviceId), 'change', changeId, page],
    queryFn: ({ signal }) =>
      api<DnsChangeData>(
        DNS_API.change(serviceId, changeId ?? 0),
        { page, pageSize: LIST_PAGE_SIZE },
        { method: 'GET', signal },
      ),
    enabled: changeId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Reverts a change set, or restores the zone as it was after one: a new change set either way. */
export function useHistoryAction(serviceId: number, action: 'revert' | 'restore') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changeId: number) => {
      const path = action === 'revert' ? DNS_API.revert(serviceId, changeId) : DNS_API.restoreAt(serviceId, changeId);
      return (await apiCall<DnsChangeMadeData>(path, undefined, { method: 'POST' })).system.info;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}

/** The zone as a BIND master file as it was after a change set, saved by the browser. */
export function useExportDnsZoneAt(serviceId: number) {
  return useMutation({ mutationFn: (changeId: number) => saveApiFile(DNS_API.exportAt(serviceId, changeId)) });
}
