import { customerChecks } from '../../drivers/doctor/customer-checks.ts';
import { checked, type DaemonCheck } from '../../drivers/doctor/daemon-check.ts';
import { daemonChecks } from '../../drivers/doctor/daemon-checks.ts';
import { setupChecks } from '../../drivers/doctor/setup-checks.ts';
import { workLogSummary } from '../../jobs/work-log-report.ts';
import { ensureProbeService, probeLoginsOf } from '../../modules/doctor/probe-accounts.ts';
import { healthRepository } from '../../modules/health/health.repository.ts';
import { NodesService } from '../../modules/nodes/nodes.service.ts';
import { changesWaiting, troubled } from '../changes-waiting.ts';
import { CliError, type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';

const check = defineCommand({
  name: 'check',
  summary:
    "Check the panel's database and every configured driver's daemon with a real call (PowerDNS's API, doveadm, Postfix's and ProFTPD's greetings, nginx -t, each PHP-FPM master, the MariaDB admin login, phpMyAdmin's sign-on script), the free disk, whether nginx reaches the PHP sockets, DNS settings still holding documentation values, and what a customer would hit (a PHP page through nginx, an IMAP and a submission login, a DNS answer, an FTP login); say how to fix what fails; exit 1 when anything does",
  usage: '',
  parse: () => ({}),
  async run({ runtime, config, now }) {
    const database = await checked(
      'panel database',
      runtime.kind === 'sqlite'
        ? `Check that ${config.dataDir} is on a disk with room and writable by the panel's user.`
        : 'Start PostgreSQL and check PANEL_DATABASE_URL (host, user, password, database).',
      async () => {
        await healthRepository.ping(runtime.db);
        return runtime.kind === 'sqlite' ? `SQLite in ${config.dataDir} answers` : 'PostgreSQL answers';
      },
    );
    const workLog = await checked(
      'work log',
      'See `panel jobs list --state failed`: fix what each one says, then `panel jobs retry <id>` (a failed job holds its object’s later changes).',
      async () => {
        await runtime.jobs.start({ workers: false });
        try {
          const summary = await workLogSummary(runtime.jobs);
          if (summary.failed > 0) throw new Error(summary.text);
          return summary.text;
        } finally {
          await runtime.jobs.stop();
        }
      },
    );
    const waiting = await checked(
      'changes on their servers',
      'See `panel jobs changes`: fix what the last error says on that server (the panel keeps trying), or ask for it now with the page’s “Retry now”.',
      async () => {
        const all = await changesWaiting(runtime.db);
        const stuck = troubled(all, now());
        if (stuck.length > 0)
          throw new Error(
            `${stuck.length} object(s) wait: ${stuck
              .slice(0, 3)
              .map((item) => `${item.area} ${item.domain}${item.lastError ? ` (${item.lastError.slice(0, 60)})` : ''}`)
              .join('; ')}`,
          );
        return all.length === 0 ? 'every change is on its server' : `${all.length} object(s) being applied now`;
      },
    );
    const servers = await checked(
      'servers',
      'Start the agent of each server shown down (on it: `systemctl start panel247-agent`), or stop giving it services with `panel node drain`; see `panel node list`.',
      async () => {
        const all = await new NodesService(runtime.db, now).list();
        if (all.length === 0) return 'no servers added: this machine is the panel’s server';
        const down = all.filter((node) => !node.up);
        if (down.length > 0)
          throw new Error(`${down.length} of ${all.length} down: ${down.map((node) => node.name).join(', ')}`);
        return `${all.length} server(s), every agent heard from in the last minute`;
      },
    );
    const [daemons, setup, customers] = await Promise.all([
      daemonChecks(config),
      Promise.all(setupChecks(config)),
      customerChecks(config),
    ]);
    const checks: DaemonCheck[] = [database, workLog, waiting, servers, ...daemons, ...setup, ...customers];
    const failed = checks.filter((item) => !item.ok);
    const skips = checks.filter((item) => item.skipped).length;
    const ran = checks.length - skips;
    const fixes = failed.map((item) => `- ${item.name}: ${item.fix ?? ''}`);
    // a skipped check is said as such: it is never counted among the passed ones
    const skippedNote = skips > 0 ? ` ${skips} skipped (nothing to ask: see their detail).` : '';
    const summary =
      failed.length === 0
        ? `All ${ran} checks that ran passed.${skippedNote}`
        : `${failed.length} of ${ran} checks failed.${skippedNote} To fix:\n${fixes.join('\n')}`;
    return {
      exitCode: failed.length > 0 ? 1 : 0,
      json: { ok: failed.length === 0, checks },
      text: `${table(
        ['CHECK', 'OK', 'DETAIL'],
        checks.map((item) => [item.name, item.skipped ? 'skipped' : item.ok ? 'yes' : 'NO', item.detail]),
      )}\n${summary}`,
    };
  },
});

const probes = defineCommand({
  name: 'probes',
  summary:
    "Make (or repair) the provider's probe service that doctor logs in to as a customer would, from the PANEL_DOCTOR_* logins: an account and a service named after their domain in the default brand, its DNS zone and main PHP site, the mailbox and the FTP account; a second run changes nothing",
  usage: '',
  parse: () => ({}),
  async run({ admin, runtime, config, now }) {
    const logins = probeLoginsOf(config);
    if (typeof logins === 'string') throw new CliError(`doctor probes: ${logins}`);
    const parts = await ensureProbeService({ admin, db: runtime.db, config, now }, logins);
    const changed = parts.filter((part) => part.state !== 'kept');
    return {
      json: { parts },
      text: `${table(
        ['PART', 'NAME', 'STATE'],
        parts.map((part) => [part.part, part.name, part.state]),
      )}\n${changed.length === 0 ? 'The probe service is as it should be.' : `${changed.length} parts made or repaired.`}`,
    };
  },
});

export const doctorCommands: CommandGroup = {
  name: 'doctor',
  summary: "What works and what does not: the panel's database and every configured daemon",
  commands: [check, probes],
  defaultCommand: 'check',
};
