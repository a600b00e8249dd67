import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const UNITS = path.resolve(import.meta.dirname, '../../../../deploy/systemd');
const ANALYZE = '/usr/bin/systemd-analyze';

/** What systemd says of a unit file: its exit code and every warning (an unknown key is only a warning). */
async function verify(file: string): Promise<{ code: number; said: string }> {
  try {
    const { stdout, stderr } = await run(ANALYZE, ['verify', file], { cwd: tmpdir() });
    return { code: 0, said: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, said: `${failure.stdout ?? ''}${failure.stderr ?? ''}`.trim() };
  }
}

const available = existsSync(ANALYZE);
if (!available && process.env.CI === 'true') throw new Error(`${ANALYZE} is missing: CI checks the systemd units`);

describe.skipIf(!available)('deploy/systemd units', () => {
  const units = readdirSync(UNITS).filter((name) => name.endsWith('.service'));

  it('ships the panel’s unit', () => {
    expect(units).toContain('panel247.service');
  });

  it.each(units)('%s passes systemd-analyze verify without a warning', async (name) => {
    expect(await verify(path.join(UNITS, name))).toEqual({ code: 0, said: '' });
  });

  it('the check sees a misspelt key and a missing program', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p247-units-'));
    const unit = readFileSync(path.join(UNITS, 'panel247.service'), 'utf8');
    writeFileSync(path.join(dir, 'typo.service'), unit.replace('ProtectSystem=', 'ProtectSystm='));
    writeFileSync(
      path.join(dir, 'missing.service'),
      unit.replace(/^ExecStart=.*$/m, 'ExecStart=/usr/bin/no-such-program'),
    );
    expect((await verify(path.join(dir, 'typo.service'))).said).toContain("Unknown key 'ProtectSystm'");
    expect((await verify(path.join(dir, 'missing.service'))).code).not.toBe(0);
  });

  it('runs as its own user, hardened, restarted on failure', () => {
    const unit = readFileSync(path.join(UNITS, 'panel247.service'), 'utf8');
    for (const line of [
      'User=panel247',
      'ProtectSystem=strict',
      'NoNewPrivileges=true',
      'PrivateTmp=true',
      'Restart=on-failure',
    ]) {
      expect(unit).toMatch(new RegExp(`^${line}$`, 'm'));
    }
  });
});
