import { nowSeconds } from '../../db/database.ts';
import { createDnsService } from '../../modules/dns/dns.service.ts';
import { type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import * as v from '../validate.ts';

const sync = defineCommand({
  name: 'sync',
  summary: 'Rewrite the DNS server (PowerDNS) from the panel database and report what had drifted',
  usage: '[SERVICE]   (a service reference such as demo.test; all zones when left out)',
  optionalPositionals: ['SERVICE'],
  parse: ({ positionals }) => ({ service: positionals[0] ? v.reference(positionals[0], 'service') : undefined }),
  async run({ runtime, config }, input: { service?: string }) {
    const dns = createDnsService(runtime.db, config, runtime.dnsDriver, () => nowSeconds());
    const reports = await dns.sync(input.service);
    const drifted = reports.filter((r) => r.missing.length + r.extra.length + r.changed.length > 0);
    const lines = reports.flatMap((r) => [
      ...r.missing.map((rrset) => [r.zone, 'missing on the server', rrset]),
      ...r.extra.map((rrset) => [r.zone, 'extra on the server (removed)', rrset]),
      ...r.changed.map((rrset) => [r.zone, 'different on the server', rrset]),
    ]);
    const summary = !runtime.dnsDriver.publishesZones
      ? 'The DNS driver is "database": the zones live in the panel only, there is no server to sync.'
      : `${reports.length} zone(s) checked, ${drifted.length} had drifted and were rewritten.`;
    return {
      json: { driver: runtime.dnsDriver.kind, zones: reports },
      text: lines.length > 0 ? `${table(['ZONE', 'DRIFT', 'RRSET'], lines)}\n${summary}` : `No drift. ${summary}`,
    };
  },
});

export const dnsCommands: CommandGroup = {
  name: 'dns',
  summary: 'DNS zones: reconcile the DNS server with the panel',
  commands: [sync],
};
