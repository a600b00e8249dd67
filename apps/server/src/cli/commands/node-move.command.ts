import { sharedWorkers } from '../../drivers/files/confined/confined-workers.ts';
import { createDnsService } from '../../modules/dns/dns.service.ts';
import { serviceFileOwner } from '../../modules/files/service-file-owner.ts';
import { MoveRolledBack, ServiceMoves } from '../../modules/nodes/service-move.ts';
import { NodeChannel } from '../../node-channel/channel-client.ts';
import { nodeChannelToken } from '../../node-channel/channel-token.ts';
import { NodeChannels } from '../../node-channel/node-channels.ts';
import { RemoteFileWorkers } from '../../node-channel/remote-file-workers.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { CliError, defineCommand } from '../command.ts';
import { domainName, integer, optionString, requiredString } from '../validate.ts';
import { nodeName } from './node-options.ts';

interface MoveInput {
  domain: string;
  to: string;
  keepOldSeconds: number;
  waitSeconds: number;
}

/** `panel node move DOMAIN --to SERVER`: a service's web part to another server (ServiceMoves). */
export const moveCommand = defineCommand({
  name: 'move',
  summary:
    "Move a hosting service's web part (home, sites, PHP pool, certificates, FTP logins) to another web server while it runs: " +
    'copied live, a short final copy with its changes held, the new server proven serving, the records the panel owns ' +
    'switched, the old copy released after --keep-old seconds (default 300, the records’ TTL); rolled back on any failure',
  usage: 'DOMAIN --to SERVER [--keep-old SECONDS] [--wait SECONDS]',
  positionals: ['DOMAIN'],
  options: { to: { type: 'string' }, 'keep-old': { type: 'string' }, wait: { type: 'string' } },
  parse: ({ positionals, values }): MoveInput => ({
    domain: domainName(String(positionals[0] ?? '')),
    to: nodeName(requiredString(values, 'to')),
    keepOldSeconds: integer(optionString(values, 'keep-old') ?? '300', 'keep-old', 0, 86_400),
    // well below MOVE_STALE_SECONDS, after which a move counts as abandoned
    waitSeconds: integer(optionString(values, 'wait') ?? '120', 'wait', 1, 600),
  }),
  async run({ runtime, config, now }, input: MoveInput) {
    if (runtime.kind !== 'postgres')
      throw new CliError('Moves are between servers, which need the panel on PostgreSQL');
    const root = config.hosting.root as string;
    const token = nodeChannelToken(loadSecretKey(config));
    const channels = new NodeChannels(runtime.db, token);
    // the unnamed machine's files: here, or its agent's for an instance apart from it
    const unnamed =
      config.agent.mode === 'separate'
        ? new RemoteFileWorkers(new NodeChannel(new URL(config.agent.url), token), root)
        : sharedWorkers();
    await runtime.jobs.start({ workers: false });
    try {
      const dns = createDnsService(runtime.db, config, runtime.dnsDriver, now, runtime.jobs);
      const moves = new ServiceMoves({
        db: runtime.db,
        now,
        jobs: runtime.jobs,
        filesOn: async (node) => (node === '' ? unnamed : new RemoteFileWorkers(await channels.forNode(node), root)),
        root,
        ownerOf: serviceFileOwner(runtime.db, config),
        correctRecords: (correct, options) => dns.correctRecords(correct, options),
        unnamedWeb: { ipv4: config.dns.webIpv4, ipv6: config.dns.webIpv6, host: config.dns.webHost },
      });
      const report = await moves.moveWeb(input.domain, input.to, {
        keepOldSeconds: input.keepOldSeconds,
        waitMs: input.waitSeconds * 1000,
      });
      return {
        json: report,
        text: [
          `${report.domain}: web moved from ${report.from || 'the unnamed machine'} to ${report.to}.`,
          `  first copy ${report.copyMs} ms (live); cut-over ${report.cutoverMs} ms (changes held)`,
          `  ${report.records} record(s) switched; the old copy is released in ${input.keepOldSeconds} s`,
        ].join('\n'),
      };
    } catch (error) {
      if (error instanceof MoveRolledBack) throw new CliError(error.message);
      throw error;
    } finally {
      channels.close();
      await runtime.jobs.stop();
    }
  },
});
