import { Resolver } from 'node:dns/promises';
import { checked, type DaemonCheck, NothingToCheck } from './daemon-check.ts';

export interface NameServersToCheck {
  /** The primary PowerDNS's API (PANEL_POWERDNS_API_URL, its key and server id). */
  apiUrl: string;
  apiKey: string;
  serverId: string;
  /** The secondaries, each `host:port` where it answers DNS (PANEL_DOCTOR_SECONDARIES). */
  secondaries: string[];
  /** How long a zone changed a moment ago may take to reach a secondary before it counts as behind. */
  graceMs?: number;
}

/** Zones compared per run: the first ones by name (a large panel's check stays a few seconds long). */
const ZONES_COMPARED = 50;
const ANSWER_WITHIN_MS = 2000;
/** Zones a secondary may leave unanswered before it is named without asking it the rest. */
const SILENT_ZONES = 3;
/** The bound docs/OPERATIONS.md gives for a change to reach every name server. */
const GRACE_MS = 10_000;

interface Behind {
  secondary: string;
  zone: string;
  why: string;
}

/**
 * `panel doctor`'s "name servers in step": every secondary answers the primary's zones with the
 * primary's SOA serial, asked over DNS at its own address as resolvers do. A zone behind is asked
 * again once the bound a change may take has passed (a change a moment ago is not a fault); a
 * secondary that does not answer, or is still behind then, fails the check, naming it.
 */
export function nameServersInStep(options: NameServersToCheck): Promise<DaemonCheck> {
  const grace = options.graceMs ?? GRACE_MS;
  return checked(
    'name servers in step',
    'Start each secondary named (systemctl start pdns on it) and check that the primary notifies it and lets it transfer (deploy/powerdns/primary.conf.template: SECONDARIES, AXFR_FROM); a secondary that was down takes the zones again once it runs.',
    async (signal) => {
      const api = `${options.apiUrl.replace(/\/$/, '')}/api/v1/servers/${encodeURIComponent(options.serverId)}`;
      const serials = async () => {
        const response = await fetch(`${api}/zones`, { signal, headers: { 'X-API-Key': options.apiKey } });
        if (!response.ok) throw new Error(`the primary's API answers HTTP ${response.status}`);
        const zones = (await response.json()) as { name: string; serial: number }[];
        return zones
          .map((zone) => ({ name: zone.name.replace(/\.$/, ''), serial: zone.serial }))
          .sort((a, b) => a.name.localeCompare(b.name))
          .slice(0, ZONES_COMPARED);
      };
      const behind = async (): Promise<{ behind: Behind[]; zones: number }> => {
        const zones = await serials();
        if (zones.length === 0) throw new NothingToCheck('no zone hosted yet');
        const found: Behind[] = [];
        for (const secondary of options.secondaries) {
          const resolver = new Resolver({ timeout: ANSWER_WITHIN_MS, tries: 1 });
          resolver.setServers([secondary]);
          signal.addEventListener('abort', () => resolver.cancel());
          let silent = 0;
          // a secondary that has not answered a few zones is named: the rest would wait for nothing
          for (const zone of zones) {
            if (silent >= SILENT_ZONES) break;
            const soa = await resolver.resolveSoa(zone.name).catch((error: { code?: string; message: string }) => {
              found.push({ secondary, zone: zone.name, why: error.code ?? error.message });
              silent += 1;
              return null;
            });
            if (soa && soa.serial < zone.serial)
              found.push({ secondary, zone: zone.name, why: `serial ${soa.serial} < ${zone.serial}` });
          }
        }
        return { behind: found, zones: zones.length };
      };
      let run = await behind();
      if (run.behind.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, grace));
        run = await behind();
      }
      if (run.behind.length > 0) {
        const servers = [...new Set(run.behind.map((one) => one.secondary))];
        const first = run.behind[0] as Behind;
        throw new Error(
          `${servers.join(', ')} behind the primary on ${run.behind.length} zone(s), e.g. ${first.zone} at ${first.secondary}: ${first.why}`,
        );
      }
      return `${options.secondaries.length} secondary(ies) answer ${run.zones} zone(s) with the primary's serials`;
    },
    // the grace, and two rounds of questions to every secondary
    grace + 30_000 * Math.max(1, options.secondaries.length),
  );
}
