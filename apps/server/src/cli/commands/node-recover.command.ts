import { createDnsService } from '../../modules/dns/dns.service.ts';
import { ServerRecovery } from '../../modules/nodes/server-recovery.ts';
import { CliError, defineCommand } from '../command.ts';
import { integer, optionString, requiredString } from '../validate.ts';
import { withBackups } from './backup.command.ts';
import { nodeName } from './node-options.ts';

interface RecoverInput {
  lost: string;
  to: string;
  waitSeconds: number;
}

/** `panel node recover LOST --to SERVER`: a lost server's services brought up on another from their backups (ServerRecovery). */
export const recoverCommand = defineCommand({
  name: 'recover',
  summary:
    'Bring the services of a server that will not come back up on another server from their newest backups: the lost ' +
    'server drained, each part it held placed on the new one (its web account and sites, its databases made there), ' +
    'the files, mailboxes and database dumps restored into it, each part proven served, the records the panel owns ' +
    'switched. A service that fails is reported and the others go on; run it again for those',
  usage: 'LOST --to SERVER [--wait SECONDS]',
  positionals: ['LOST'],
  options: { to: { type: 'string' }, wait: { type: 'string' } },
  parse: ({ positionals, values }): RecoverInput => ({
    lost: nodeName(String(positionals[0] ?? '')),
    to: nodeName(requiredString(values, 'to')),
    waitSeconds: integer(optionString(values, 'wait') ?? '120', 'wait', 1, 600),
  }),
  async run(ctx, input: RecoverInput) {
    const { runtime, config, now } = ctx;
    if (runtime.kind !== 'postgres') throw new CliError('Servers need the panel on PostgreSQL');
    await runtime.jobs.start({ workers: false });
    try {
      const dns = createDnsService(runtime.db, config, runtime.dnsDriver, now, runtime.jobs);
      const report = await withBackups(ctx, (backups, channels) =>
        new ServerRecovery({
          db: runtime.db,
          now,
          jobs: runtime.jobs,
          backups,
          prepareDatabases: async (node, serviceId) =>
            (await channels.forNode(node)).write('databases.prepare', [serviceId]),
          correctRecords: (correct, options) => dns.correctRecords(correct, options),
        }).recover(input.lost, input.to, { waitMs: input.waitSeconds * 1000 }),
      );
      return {
        json: report,
        text: [
          `${report.lost}: ${report.recovered.length} service(s) brought up on ${report.to} from their backups.`,
          ...report.recovered.map(
            (one) =>
              `  ${one.domain}: ${one.parts.join(', ')} from snapshot ${one.snapshot.slice(0, 8)}; ${one.records} record(s) switched`,
          ),
          ...report.failed.map((one) => `  ${one.domain}: FAILED: ${one.error}`),
        ].join('\n'),
        ...(report.failed.length > 0 ? { exitCode: 1 } : {}),
      };
    } finally {
      await runtime.jobs.stop();
    }
  },
});
