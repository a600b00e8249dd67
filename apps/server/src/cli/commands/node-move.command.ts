import { createDnsService } from '../../modules/dns/dns.service.ts';
import { MOVABLE_PARTS, type MovablePart } from '../../modules/nodes/part-move.jobs.ts';
import { MoveRolledBack, ServiceMoves } from '../../modules/nodes/service-move.ts';
import { NodeChannel } from '../../node-channel/channel-client.ts';
import { nodeChannelToken } from '../../node-channel/channel-token.ts';
import { NodeChannels } from '../../node-channel/node-channels.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { CliError, defineCommand } from '../command.ts';
import { domainName, integer, optionString, requiredString } from '../validate.ts';
import { moveCopies } from './move-copies.ts';
import { nodeName } from './node-options.ts';

interface MoveInput {
  part: MovablePart;
  domain: string;
  to: string;
  keepOldSeconds: number;
  waitSeconds: number;
}

function movablePart(value: string): MovablePart {
  if (!(MOVABLE_PARTS as readonly string[]).includes(value))
    throw new CliError(`--part must be one of ${MOVABLE_PARTS.join(', ')}`);
  return value as MovablePart;
}

/** `panel node move DOMAIN --to SERVER [--part web|mail|databases]`: a part of a hosting service to another server (ServiceMoves). */
export const moveCommand = defineCommand({
  name: 'move',
  summary:
    "Move a hosting service's web part (home, sites, PHP pool, certificates, FTP logins), with --part mail its " +
    'mail (mailboxes, Sieve scripts, DKIM signing), or with --part databases its databases (and their users) to ' +
    'another server while it runs: copied live, a short final copy with its changes held (a databases move locks ' +
    'the old users and copies each database then), the new server proven serving, the records the panel owns ' +
    'switched, the old copy released after --keep-old seconds (default 300, the records’ TTL); rolled back on any failure',
  usage: 'DOMAIN --to SERVER [--part web|mail|databases] [--keep-old SECONDS] [--wait SECONDS]',
  positionals: ['DOMAIN'],
  options: {
    to: { type: 'string' },
    part: { type: 'string' },
    'keep-old': { type: 'string' },
    wait: { type: 'string' },
  },
  parse: ({ positionals, values }): MoveInput => ({
    part: movablePart(optionString(values, 'part') ?? 'web'),
    domain: domainName(String(positionals[0] ?? '')),
    to: nodeName(requiredString(values, 'to')),
    keepOldSeconds: integer(optionString(values, 'keep-old') ?? '300', 'keep-old', 0, 86_400),
    // well below MOVE_STALE_SECONDS, after which a move counts as abandoned
    waitSeconds: integer(optionString(values, 'wait') ?? '120', 'wait', 1, 600),
  }),
  async run({ runtime, config, now }, input: MoveInput) {
    if (runtime.kind !== 'postgres')
      throw new CliError('Moves are between servers, which need the panel on PostgreSQL');
    const secretKey = loadSecretKey(config);
    const token = nodeChannelToken(secretKey);
    const channels = new NodeChannels(runtime.db, token);
    // the unnamed machine's agent, for an instance apart from it
    const unnamedAgent = config.agent.mode === 'separate' ? new NodeChannel(new URL(config.agent.url), token) : null;
    const copies = moveCopies(runtime.db, config, secretKey, now, channels, unnamedAgent);
    await runtime.jobs.start({ workers: false });
    try {
      const dns = createDnsService(runtime.db, config, runtime.dnsDriver, now, runtime.jobs);
      const moves = new ServiceMoves({
        db: runtime.db,
        now,
        jobs: runtime.jobs,
        copies: copies.copies,
        correctRecords: (correct, options) => dns.correctRecords(correct, options),
        unnamed: {
          web: { ipv4: config.dns.webIpv4, ipv6: config.dns.webIpv6, host: config.dns.webHost },
          mail: { ipv4: config.dns.mailIpv4, ipv6: '', host: config.dns.mailHost },
          databases: { ipv4: config.dns.databasesIpv4, ipv6: '', host: config.dns.databasesHost },
        },
      });
      const report = await moves.move(input.part, input.domain, input.to, {
        keepOldSeconds: input.keepOldSeconds,
        waitMs: input.waitSeconds * 1000,
      });
      return {
        json: report,
        text: [
          `${report.domain}: ${report.part} moved from ${report.from || 'the unnamed machine'} to ${report.to}.`,
          `  first copy ${report.copyMs} ms (live); cut-over ${report.cutoverMs} ms (changes held)`,
          `  ${report.records} record(s) switched; the old copy is released in ${input.keepOldSeconds} s`,
        ].join('\n'),
      };
    } catch (error) {
      if (error instanceof MoveRolledBack) throw new CliError(error.message);
      throw error;
    } finally {
      channels.close();
      unnamedAgent?.close();
      await copies.close();
      await runtime.jobs.stop();
    }
  },
});
