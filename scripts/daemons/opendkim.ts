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

export interface OpenDkim {
  port: number;
  /** Where the panel's opendkim driver writes KeyTable, SigningTable and the keys (PANEL_MAIL_OPENDKIM_DIR). */
  tablesDir: string;
  pidFile: string;
  /** OpenDKIM's user, owner of the key files (PANEL_MAIL_OPENDKIM_UID/GID). */
  uid: number;
  gid: number;
  /** The main.cf lines that send Postfix's mail through it (deploy/opendkim/postfix-milter.cf.template). */
  postfixMainCf: string;
  output(): string;
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

/** Debian's OpenDKIM from the deploy/ template on a loopback port, as OpenDKIM's own user. */
export async function startOpenDkim(placement: Placement = temporaryPlacement): Promise<OpenDkim> {
  const binary = requireBinary('opendkim', 'opendkim');
  const dir = await placement.folder('opendkim');
  chmodSync(dir, 0o755);
  const port = await placement.port('opendkim.milter');
  const uid = Number((await execFileAsync('id', ['-u', 'opendkim'])).stdout.trim());
  const gid = Number((await execFileAsync('id', ['-g', 'opendkim'])).stdout.trim());
  const tablesDir = path.join(dir, 'tables');
  mkdirSync(tablesDir, { recursive: true });
  chmodSync(tablesDir, 0o750);
  chownSync(tablesDir, uid, gid);
  // OpenDKIM refuses to start without its tables: empty ones until the panel writes them.
  for (const table of ['KeyTable', 'SigningTable']) {
    writeFileSync(path.join(tablesDir, table), '', { mode: 0o640, flag: 'a' });
    chownSync(path.join(tablesDir, table), uid, gid);
  }
  const conf = path.join(dir, 'opendkim.conf');
  writeFileSync(
    conf,
    fillDeployTemplate('opendkim/opendkim.conf.template', {
      DIR: dir,
      PORT: String(port),
      TABLES: tablesDir,
      USER: 'opendkim',
      SYSLOG: process.env.PANEL_TEST_OPENDKIM_SYSLOG ?? 'no',
      // OpenDKIM calls a key unsafe when any folder above it is writable by others: the test
      // folders live under /tmp (mode 1777). The driver's 0600 files owned by OpenDKIM's user are
      // checked by the tests themselves; deploy's keys live under /etc/opendkim with `yes`.
      REQUIRE_SAFE_KEYS: 'no',
    }),
  );
  const daemon: RunningDaemon = startForeground(binary, ['-f', '-x', conf]);
  try {
    await waitForPort(port);
  } catch (error) {
    await daemon.stop();
    throw new Error(`opendkim did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    port,
    tablesDir,
    pidFile: path.join(dir, 'opendkim.pid'),
    uid,
    gid,
    postfixMainCf: fillDeployTemplate('opendkim/postfix-milter.cf.template', { OPENDKIM_PORT: String(port) }),
    output: () => daemon.output(),
    processes: () => ({ opendkim: daemon.process.pid }),
    stop: () => daemon.stop(),
  };
}
