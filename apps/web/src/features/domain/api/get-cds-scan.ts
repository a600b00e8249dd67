import type { CdsScan, CdsScanData } from '@panel247/contract/dnssec';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dnssecQueryKey } from './list-dnssec';

/** The domain's last CDS/CDNSKEY scan (null: never scanned); refreshed with its DNSSEC entries. */
export async function getCdsScan(id: number, signal?: AbortSignal): Promise<CdsScan | null> {
  return (await api<CdsScanData>(DOMAIN_API.dnssecScan(id), undefined, { method: 'GET', signal })).scan;
}

export function useCdsScan(id: number, enabled = true) {
  return useQuery({
    queryKey: [...dnssecQueryKey(id), 'scan'] as const,
    queryFn: ({ signal }) => getCdsScan(id, signal),
    enabled,
  });
}
