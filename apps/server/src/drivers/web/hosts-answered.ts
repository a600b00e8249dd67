import { getFromHost, webAddressFrom } from './host-request.ts';

/** A host and nginx's answer to it here: its HTTP status, 0 for none. */
export interface HostAnswer {
  host: string;
  status: number;
}

/**
 * How this machine's nginx (at PANEL_WEB_HTTP_LISTEN) answers each host: a service moved here is
 * proven served (an answer below 500) before its records are switched to this server.
 */
export async function hostsAnswered(httpListen: string, hosts: string[], timeoutMs = 5000): Promise<HostAnswer[]> {
  const address = webAddressFrom(httpListen);
  return Promise.all(
    hosts.map(async (host) => {
      const answer = await getFromHost(address, host, '/', AbortSignal.timeout(timeoutMs)).catch(() => null);
      return { host, status: answer?.status ?? 0 };
    }),
  );
}
