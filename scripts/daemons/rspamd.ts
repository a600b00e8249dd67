import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  execFileAsync,
  type Placement,
  type RunningDaemon,
  requireBinary,
  startForeground,
  temporaryPlacement,
  waitForPort,
} from './daemon-harness.ts';
import { fillDeployTemplate } from './deploy-template.ts';

export interface Rspamd {
  /** The scanner's address (host:port), as the spam filter's program asks it. */
  address: string;
  output(): string;
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

/**
 * Debian's rspamd with its own configuration and the panel's scanner settings from deploy/rspamd,
 * its workers on loopback ports of the run, logging to the console, as rspamd's own user. The
 * machine has no resolver that answers for the world: DNS goes to a loopback port nobody serves,
 * so network checks fail at once instead of waiting out their timeouts.
 */
export async function startRspamd(placement: Placement = temporaryPlacement): Promise<Rspamd> {
  const binary = requireBinary('rspamd', 'rspamd');
  const dir = await placement.folder('rspamd');
  chmodSync(dir, 0o755);
  const [normal, proxy, controller, deadDns] = [
    await placement.port('rspamd.normal'),
    await placement.port('rspamd.proxy'),
    await placement.port('rspamd.controller'),
    await placement.port('rspamd.dns'),
  ];
  const localDir = path.join(dir, 'local.d');
  mkdirSync(localDir, { recursive: true });
  const address = `127.0.0.1:${normal}`;
  writeFileSync(
    path.join(localDir, 'worker-normal.inc'),
    fillDeployTemplate('rspamd/worker-normal.inc.template', { LISTEN: address }),
  );
  writeFileSync(path.join(localDir, 'worker-proxy.inc'), `bind_socket = "127.0.0.1:${proxy}";\n`);
  writeFileSync(path.join(localDir, 'worker-controller.inc'), `bind_socket = "127.0.0.1:${controller}";\n`);
  writeFileSync(path.join(localDir, 'logging.inc'), 'type = "console";\nlevel = "warning";\n');
  writeFileSync(
    path.join(localDir, 'options.inc'),
    `dns {\n  nameserver = ["127.0.0.1:${deadDns}"];\n  timeout = 1s;\n  retransmits = 1;\n}\n`,
  );
  const state = ['run', 'db', 'log'].map((name) => {
    const folder = path.join(dir, name);
    mkdirSync(folder, { recursive: true });
    return folder;
  });
  const [runDir, dbDir, logDir] = state as [string, string, string];
  const { uid, gid } = await rspamdUser();
  for (const folder of state) chownSync(folder, uid, gid);
  const daemon: RunningDaemon = startForeground(binary, [
    '-f',
    '-u',
    '_rspamd',
    '-g',
    '_rspamd',
    '-c',
    '/etc/rspamd/rspamd.conf',
    `--var=LOCAL_CONFDIR=${dir}`,
    `--var=RUNDIR=${runDir}`,
    `--var=DBDIR=${dbDir}`,
    `--var=LOGDIR=${logDir}`,
  ]);
  try {
    await waitForPort(normal);
  } catch (error) {
    await daemon.stop();
    throw new Error(`rspamd did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    address,
    output: () => daemon.output(),
    processes: () => ({ rspamd: daemon.process.pid }),
    stop: () => daemon.stop(),
  };
}

async function rspamdUser(): Promise<{ uid: number; gid: number }> {
  const uid = Number((await execFileAsync('id', ['-u', '_rspamd'])).stdout.trim());
  const gid = Number((await execFileAsync('id', ['-g', '_rspamd'])).stdout.trim());
  return { uid, gid };
}
