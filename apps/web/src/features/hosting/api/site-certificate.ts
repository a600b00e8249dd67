import type { SiteCertificate, SiteCertificateData } from '@panel247/contract/certificates';
import { SUBDOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../../../lib/api-client';
import { orderRunning } from '../lib/certificate-state';
import { hostingQueryKey } from './get-hosting-service';
import { subdomainPagesQueryKey } from './list-subdomain-page';

/** How often a running order is asked about. */
export const CERTIFICATE_POLL_MS = 1000;

export const siteCertificateQueryKey = (serviceId: number, siteId: number) =>
  [...hostingQueryKey(serviceId), 'certificate', siteId] as const;

export async function getSiteCertificate(
  serviceId: number,
  siteId: number,
  signal?: AbortSignal,
): Promise<SiteCertificate | null> {
  return (
    await api<SiteCertificateData>(SUBDOMAIN_API.certificate(serviceId, siteId), undefined, { method: 'GET', signal })
  ).certificate;
}

/**
 * A site's automatic certificate (null: SSL off or uploaded). While an order runs it is asked
 * again every second, so the row and the dialog follow its steps without a reload.
 */
export function useSiteCertificate(serviceId: number, siteId: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: siteCertificateQueryKey(serviceId, siteId ?? 0),
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<SiteCertificate | null>(siteCertificateQueryKey(serviceId, siteId ?? 0));
      const certificate = await getSiteCertificate(serviceId, siteId ?? 0, signal);
      // The order installs the certificate into the site itself: its row is read again once.
      if (before && orderRunning(before.state) && certificate?.state === 'installed')
        void queryClient.invalidateQueries({ queryKey: subdomainPagesQueryKey(serviceId) });
      return certificate;
    },
    enabled: siteId !== null,
    refetchInterval: (query) => (orderRunning(query.state.data?.state) ? CERTIFICATE_POLL_MS : false),
    refetchIntervalInBackground: true,
    retry: 2,
  });
}

export interface CertificateRequest {
  challenge: SiteCertificate['challenge'];
  wildcard: boolean;
}

/** Automatic on: the server checks first (field errors on `challenge`/`wildcard`), then orders in the background. */
export async function setCertificateAuto(serviceId: number, siteId: number, request: CertificateRequest) {
  const { data, system } = await apiCall<SiteCertificateData>(
    SUBDOMAIN_API.certificateAuto(serviceId, siteId),
    { challenge: request.challenge, wildcard: request.wildcard ? '1' : '0' },
    { method: 'POST' },
  );
  return { certificate: data.certificate, info: system.info };
}

/** Back to a certificate the customer manages: the installed one stays, nothing renews it. */
export async function setCertificateManual(serviceId: number, siteId: number) {
  const { system } = await apiCall<SiteCertificateData>(SUBDOMAIN_API.certificateManual(serviceId, siteId), undefined, {
    method: 'POST',
  });
  return { info: system.info };
}

export function useCertificateAuto(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ siteId, request }: { siteId: number; request: CertificateRequest }) =>
      setCertificateAuto(serviceId, siteId, request),
    onSuccess: ({ certificate }, { siteId }) => {
      queryClient.setQueryData(siteCertificateQueryKey(serviceId, siteId), certificate);
    },
  });
}

export function useCertificateManual(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (siteId: number) => setCertificateManual(serviceId, siteId),
    onSuccess: (_result, siteId) => {
      queryClient.setQueryData(siteCertificateQueryKey(serviceId, siteId), null);
    },
  });
}
