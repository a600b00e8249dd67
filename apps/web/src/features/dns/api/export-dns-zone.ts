import { DNS_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { saveApiFile } from '../../../lib/save-file';

/** The zone as a BIND master file, saved by the browser under the server's file name. */
export function exportDnsZone(serviceId: number): Promise<string> {
  return saveApiFile(DNS_API.exportZone(serviceId));
}

export function useExportDnsZone(serviceId: number) {
  return useMutation({ mutationFn: () => exportDnsZone(serviceId) });
}
