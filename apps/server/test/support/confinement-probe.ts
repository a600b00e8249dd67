/**
 * Run by systemd-confinement.test.ts inside the panel unit's box (its capability bounding set, no
 * new privileges, its umask, the system read-only): what the real drivers do as root, each step
 * reported as ok or its error. Argument: a writable folder standing in for the unit's
 * ReadWritePaths, laid out by the test.
 */
import { chownSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfinedWorkers } from '../../src/drivers/files/confined/confined-workers.ts';
import { ensurePhpSocketFolder } from '../../src/drivers/web/php-socket-folder.ts';

const top = process.argv[2] as string;
const NOBODY = { uid: 65534, gid: 65534 };
const results: Record<string, string> = {};

async function step(name: string, action: () => unknown): Promise<void> {
  try {
    await action();
    results[name] = 'ok';
  } catch (error) {
    results[name] = (error as Error).message.split('\n')[0] as string;
  }
}

const workers = new ConfinedWorkers({ timeoutMs: 20_000 });
await step('home made and given to its service user (CAP_CHOWN)', () => {
  mkdirSync(path.join(top, 'www', 'a.test'));
  chownSync(path.join(top, 'www', 'a.test'), NOBODY.uid, NOBODY.gid);
});
await step('file worker saves as the service user (CAP_SETUID, CAP_SETGID, no capability kept)', async () => {
  await workers.call({
    op: 'save',
    base: path.join(top, 'www', 'a.test'),
    folder: [],
    owner: NOBODY,
    args: { path: 'index.php', content: '<?php' },
  });
  const made = lstatSync(path.join(top, 'www', 'a.test', 'index.php'));
  if (made.uid !== NOBODY.uid) throw new Error(`index.php is uid ${made.uid}`);
});
await step('maildir made in the mail root of another owner (CAP_DAC_OVERRIDE)', () => {
  mkdirSync(path.join(top, 'mail', 'a.test', 'info'), { recursive: true });
});
await step('PHP-FPM socket folder made 0755', async () => {
  await ensurePhpSocketFolder(path.join(top, 'run', 'php', 'panel247-8.2'));
  const mode = lstatSync(path.join(top, 'run', 'php', 'panel247-8.2')).mode & 0o7777;
  if (mode !== 0o755) throw new Error(`mode ${mode.toString(8)}`);
});
await step('the system outside the writable paths is read-only', () => {
  try {
    writeFileSync('/etc/panel247-confinement-probe', '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EROFS') return;
    throw error;
  }
  throw new Error('/etc was writable');
});
await workers.close();
process.stdout.write(`${JSON.stringify(results)}\n`);
