import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The drivers' root work under the box deploy/systemd/panel247.service puts the panel in, without
 * a running systemd: a private mount namespace with /etc, /usr, /var and /run read-only
 * (ProtectSystem=strict), then setpriv with the unit's CapabilityBoundingSet, NoNewPrivileges and
 * UMask. The values are read from the unit file, so a driver needing a power the unit lacks fails
 * here. The writable paths themselves are compared with the docs by the unit test of the unit.
 */
const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../../..');
const UNIT = readFileSync(path.join(REPO, 'deploy/systemd/panel247.service'), 'utf8');
const PROBE = path.join(REPO, 'apps/server/test/support/confinement-probe.ts');
const TOOLS = ['/usr/bin/unshare', '/usr/bin/setpriv'];

const isRoot = process.getuid?.() === 0;
const missing = TOOLS.filter((tool) => !existsSync(tool));
if (process.env.CI === 'true' && (!isRoot || missing.length > 0)) {
  throw new Error(`the confinement test needs root and ${missing.join(', ') || 'nothing more'}`);
}

function unitValue(key: string): string {
  const value = new RegExp(`^${key}=(.*)$`, 'm').exec(UNIT)?.[1];
  if (value === undefined) throw new Error(`the unit has no ${key}=`);
  return value.trim();
}

/** setpriv's --bounding-set from the unit's CapabilityBoundingSet (CAP_CHOWN → +chown). */
function boundingSet(capabilities: string): string {
  return ['-all', ...capabilities.split(/\s+/).map((name) => `+${name.replace(/^CAP_/, '').toLowerCase()}`)].join(',');
}

/** Runs the probe in the unit's box (with `capabilities` instead of the unit's, to see the test bite). */
async function probe(top: string, capabilities = unitValue('CapabilityBoundingSet')): Promise<Record<string, string>> {
  expect(unitValue('NoNewPrivileges')).toBe('true');
  expect(unitValue('ProtectSystem')).toBe('strict');
  const readOnly = ['/etc', '/usr', '/var', '/run'].map(
    (dir) => `mount --bind ${dir} ${dir} && mount -o remount,bind,ro ${dir}`,
  );
  const script = [
    ...readOnly,
    `umask ${unitValue('UMask')}`,
    // the arguments after -c are $0…: the probe's folder and the bounding set, never pasted into the script
    'exec setpriv --no-new-privs --bounding-set "$1" --inh-caps -all -- node --import tsx "$2" "$0"',
  ].join(' && ');
  const { stdout } = await run(
    '/usr/bin/unshare',
    ['-m', '--propagation', 'private', 'sh', '-c', script, top, boundingSet(capabilities), PROBE],
    { cwd: REPO, timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() as string);
}

describe.skipIf(!isRoot || missing.length > 0)('the panel under its systemd unit’s confinement', () => {
  const tops: string[] = [];
  afterAll(() => {
    for (const top of tops) rmSync(top, { recursive: true, force: true });
  });

  /** The writable paths' stand-ins, with the owners and modes of the owners table. */
  function layout(): string {
    const top = mkdtempSync(path.join(tmpdir(), 'p247-confinement-'));
    tops.push(top);
    chmodSync(top, 0o755);
    mkdirSync(path.join(top, 'www'), { mode: 0o755 });
    mkdirSync(path.join(top, 'mail'));
    chownSync(path.join(top, 'mail'), 8, 8);
    chmodSync(path.join(top, 'mail'), 0o770);
    mkdirSync(path.join(top, 'run'), { mode: 0o755 });
    return top;
  }

  it('every driver step works as root with the unit’s capabilities, and the rest of the system is read-only', async () => {
    const results = await probe(layout());
    expect(results).toEqual({
      'home made and given to its service user (CAP_CHOWN)': 'ok',
      'file worker saves as the service user (CAP_SETUID, CAP_SETGID, no capability kept)': 'ok',
      'maildir made in the mail root of another owner (CAP_DAC_OVERRIDE)': 'ok',
      'PHP-FPM socket folder made 0755': 'ok',
      'the system outside the writable paths is read-only': 'ok',
    });
  });

  it('the check bites: without CAP_SETUID and CAP_DAC_OVERRIDE those steps fail', async () => {
    const fewer = unitValue('CapabilityBoundingSet')
      .split(/\s+/)
      .filter((name) => name !== 'CAP_SETUID' && name !== 'CAP_DAC_OVERRIDE')
      .join(' ');
    const results = await probe(layout(), fewer);
    expect(results['file worker saves as the service user (CAP_SETUID, CAP_SETGID, no capability kept)']).not.toBe(
      'ok',
    );
    expect(results['maildir made in the mail root of another owner (CAP_DAC_OVERRIDE)']).not.toBe('ok');
    expect(results['home made and given to its service user (CAP_CHOWN)']).toBe('ok');
  });
});
