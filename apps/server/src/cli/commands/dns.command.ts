import { nowSeconds } from '../../db/database.ts';
import { correctedValue, placeholderSettings } from '../../dns-placeholders.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { createDnsService } from '../../modules/dns/dns.service.ts';
import { type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';
import { renderOutcome, type SyncOutcome, type SyncStep } from '../sync-step.ts';
import * as v from '../validate.ts';

async function syncZones(
  { runtime, config }: CommandContext,
  service: string | undefined,
  options: SyncOptions,
): Promise<SyncOutcome> {
  const dns = createDnsService(runtime.db, config, runtime.dnsDriver, () => nowSeconds(), runtime.sender);
  const reports = await dns.sync(service, options);
  const drifted = reports.filter((r) => r.missing.length + r.extra.length + r.changed.length > 0);
  const action = options.dryRun ? 'not repaired (dry run)' : 'rewritten';
  const rows = reports.flatMap((r) => [
    ...r.missing.map((rrset) => [r.zone, 'missing on the server', rrset, action]),
    ...r.extra.map((rrset) => [r.zone, 'extra on the server', rrset, options.dryRun ? action : 'removed']),
    ...r.changed.map((rrset) => [r.zone, 'different on the server', rrset, action]),
  ]);
  const summary = !runtime.dnsDriver.publishesZones
    ? 'The DNS driver is "database": the zones live in the panel only, there is no server to sync.'
    : `${reports.length} zone(s) checked, ${drifted.length} had drifted${options.dryRun ? '' : ' and were rewritten'}.`;
  return {
    json: { driver: runtime.dnsDriver.kind, dryRun: options.dryRun, zones: reports },
    headers: ['ZONE', 'DRIFT', 'RRSET', 'RESULT'],
    rows,
    summary,
    // A zone the server refuses throws, and the command fails with it.
    failed: 0,
  };
}

export const dnsSyncStep: SyncStep = { name: 'dns', run: (ctx, options) => syncZones(ctx, undefined, options) };

const sync = defineCommand({
  name: 'sync',
  summary:
    'Rewrite the DNS server (PowerDNS) from the panel database and report what had drifted (--dry-run: report only)',
  usage: '[SERVICE] [--dry-run]   (a service reference such as demo.test; all zones when left out)',
  optionalPositionals: ['SERVICE'],
  options: { 'dry-run': { type: 'boolean' } },
  parse: ({ positionals, values }) => ({
    service: positionals[0] ? v.reference(positionals[0], 'service') : undefined,
    dryRun: values['dry-run'] === true,
  }),
  async run(ctx, input: { service?: string; dryRun: boolean }) {
    const outcome = await syncZones(ctx, input.service, { dryRun: input.dryRun });
    return { json: outcome.json, text: renderOutcome(outcome) };
  },
});

const placeholders = defineCommand({
  name: 'placeholders',
  summary:
    "List the DNS settings still holding documentation values and the zones' records made from them; --fix rewrites those records with the current settings",
  usage: '[--fix]',
  options: { fix: { type: 'boolean' } },
  parse: ({ values }) => ({ fix: values.fix === true }),
  async run({ runtime, config, now }, input: { fix: boolean }) {
    const settings = placeholderSettings(config);
    const dns = createDnsService(runtime.db, config, runtime.dnsDriver, now, runtime.sender);
    // A record is corrected only towards a real value: one still a placeholder is left as it is.
    const records = await dns.correctRecords((record) => correctedValue(record, config), { dryRun: !input.fix });
    const settingsText =
      settings.length === 0
        ? 'No DNS setting holds a documentation value.'
        : `DNS settings still holding documentation values (set them first):\n${table(
            ['SETTING', 'VARIABLE', 'VALUE'],
            settings.map((s) => [s.path, s.variable, s.value]),
          )}`;
    const verb = input.fix ? 'rewritten' : 'to rewrite (run with --fix)';
    const recordsText =
      records.length === 0
        ? settings.length > 0
          ? "The zones' records made from them are corrected once the settings hold the provider's values (then run with --fix)."
          : 'No record made from a placeholder is left to correct.'
        : `Records ${verb}:\n${table(
            ['ZONE', 'NAME', 'TYPE', 'BEFORE', 'AFTER'],
            records.map((r) => [r.zone, r.zona || '@', r.type, r.before, r.after ?? '(removed)']),
          )}`;
    return {
      json: { settings, records, fixed: input.fix },
      text: `${settingsText}\n\n${recordsText}`,
      // Something is still wrong: a setting to set, or records left (a dry run).
      exitCode: settings.length > 0 || (!input.fix && records.length > 0) ? 1 : 0,
    };
  },
});

export const dnsCommands: CommandGroup = {
  name: 'dns',
  summary: 'DNS zones: reconcile the DNS server with the panel, correct placeholder values',
  commands: [sync, placeholders],
};
