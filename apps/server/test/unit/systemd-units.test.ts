import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../../..');
const UNITS = path.join(REPO, 'deploy/systemd');
const ANALYZE = '/usr/bin/systemd-analyze';
const TMPFILES = '/usr/bin/systemd-tmpfiles';
/** Debian's own units, which the drop-ins of deploy/systemd/<unit>.d/ extend. */
const DEBIAN_UNITS = '/lib/systemd/system';

/**
 * What systemd says of a unit file: its exit code and every warning (an unknown key is only a
 * warning). With `unitPath`, units and drop-ins are looked up there first (SYSTEMD_UNIT_PATH).
 */
async function verify(file: string, unitPath?: string): Promise<{ code: number; said: string }> {
  try {
    const env = unitPath ? { ...process.env, SYSTEMD_UNIT_PATH: `${unitPath}:` } : process.env;
    const { stdout, stderr } = await run(ANALYZE, ['verify', file], { cwd: tmpdir(), env });
    return { code: 0, said: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, said: `${failure.stdout ?? ''}${failure.stderr ?? ''}`.trim() };
  }
}

/** Every value of a key in the [Service] section, split on spaces. */
function values(unit: string, key: string): string[] {
  return [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].flatMap((match) => (match[1] as string).split(/\s+/));
}

/** The `d` and `f` lines of deploy/tmpfiles.d: path → owner:group and mode. */
function tmpfiles(): Map<string, { owner: string; mode: string }> {
  const lines = new Map<string, { owner: string; mode: string }>();
  const dir = path.join(REPO, 'deploy/tmpfiles.d');
  for (const name of readdirSync(dir)) {
    for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      // a ":" value is used only when the path is made: the same owner and mode, kept after
      const [type, file, mode, user, group] = line
        .trim()
        .split(/\s+/)
        .map((field) => field.replace(/^:/, ''));
      if ((type === 'd' || type === 'f') && file && mode && user && group) {
        lines.set(file, { owner: `${user}:${group}`, mode });
      }
    }
  }
  return lines;
}

/** The rows of a Markdown table under a heading of docs/OPERATIONS.md, as cells. */
function tableUnder(heading: string): string[][] {
  const doc = readFileSync(path.join(REPO, 'docs/OPERATIONS.md'), 'utf8');
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/OPERATIONS.md has no "${heading}"`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of doc.slice(start + heading.length + 2).split('\n')) {
    if (line.startsWith('|')) {
      inTable = true;
      if (!/^\|[-| ]+\|$/.test(line))
        rows.push(
          line
            .slice(1, -1)
            .split(' | ')
            .map((cell) => cell.trim()),
        );
    } else if (inTable) break;
  }
  return rows.slice(1);
}

/** The absolute paths a cell names in backquotes (`/var/lib/panel247`). */
function pathsIn(cell: string): string[] {
  return [...cell.matchAll(/`(\/[^`\s]*)`/g)].map((match) => match[1] as string);
}

const available = existsSync(ANALYZE);
if (!available && process.env.CI === 'true') throw new Error(`${ANALYZE} is missing: CI checks the systemd units`);

describe.skipIf(!available)('deploy/systemd units', () => {
  const units = readdirSync(UNITS).filter((name) => name.endsWith('.service'));

  const dropIns = readdirSync(UNITS).filter((name) => name.endsWith('.service.d'));

  it('ships the panel’s and the node agent’s units and the drop-ins for Debian’s PHP-FPM and OpenDKIM', () => {
    expect(units).toEqual(expect.arrayContaining(['panel247.service', 'panel247-agent.service']));
    expect(dropIns).toEqual(expect.arrayContaining(['php8.2-fpm.service.d', 'opendkim.service.d']));
  });

  it.each(dropIns)('Debian’s unit with %s passes systemd-analyze verify without a warning', async (name) => {
    const unit = name.slice(0, -'.d'.length);
    const debian = path.join(DEBIAN_UNITS, unit);
    if (!existsSync(debian)) {
      if (process.env.CI === 'true') throw new Error(`${debian} is missing: install its Debian package`);
      return;
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'p247-dropins-'));
    cpSync(debian, path.join(dir, unit));
    cpSync(path.join(UNITS, name), path.join(dir, name), { recursive: true });
    expect(await verify(path.join(dir, unit), dir)).toEqual({ code: 0, said: '' });
    // and the check does read the drop-in
    writeFileSync(path.join(dir, name, 'typo.conf'), '[Service]\nExecStartPr=/bin/true\n');
    expect((await verify(path.join(dir, unit), dir)).said).toContain("Unknown key 'ExecStartPr'");
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

  it('boxes the node agent exactly as the panel: every line after ExecStart is the same', () => {
    const after = (name: string) => {
      const lines = readFileSync(path.join(UNITS, name), 'utf8').split('\n');
      return lines
        .slice(lines.findIndex((line) => line.startsWith('ExecStart=')))
        .filter((line) => !line.startsWith('#'));
    };
    const [panelStart, ...panel] = after('panel247.service');
    const [agentStart, ...agent] = after('panel247-agent.service');
    expect(panelStart).toBe('ExecStart=/usr/bin/node apps/server/dist/main.js');
    expect(agentStart).toBe('ExecStart=/usr/bin/node apps/server/dist/agent.js');
    expect(agent).toEqual(panel);
    // and what comes before it runs as the same user, from the same settings
    for (const line of ['User=root', 'Group=panel247', 'EnvironmentFile=/etc/panel247/panel247.env'])
      expect(readFileSync(path.join(UNITS, 'panel247-agent.service'), 'utf8')).toMatch(new RegExp(`^${line}$`, 'm'));
  });

  it('runs as root, confined and hardened, restarted on failure', () => {
    const unit = readFileSync(path.join(UNITS, 'panel247.service'), 'utf8');
    for (const line of [
      'User=root',
      'Group=panel247',
      'ProtectSystem=strict',
      'NoNewPrivileges=true',
      'PrivateTmp=true',
      'ProtectHome=true',
      'Restart=on-failure',
    ]) {
      expect(unit).toMatch(new RegExp(`^${line}$`, 'm'));
    }
    // root, so no ambient capability is granted: the bounding set is all it keeps
    expect(unit).not.toMatch(/^AmbientCapabilities=/m);
    expect(values(unit, 'CapabilityBoundingSet').sort()).toEqual(
      [
        'CAP_CHOWN',
        'CAP_DAC_OVERRIDE',
        'CAP_DAC_READ_SEARCH',
        'CAP_FOWNER',
        'CAP_KILL',
        'CAP_NET_BIND_SERVICE',
        'CAP_SETGID',
        'CAP_SETUID',
      ].sort(),
    );
  });
});

describe('who the panel runs as: the unit, tmpfiles.d and docs/OPERATIONS.md agree', () => {
  const unit = readFileSync(path.join(UNITS, 'panel247.service'), 'utf8');
  const writable = values(unit, 'ReadWritePaths');
  const made = tmpfiles();

  it('the unit writes exactly the paths of the table "What the panel’s unit may write"', () => {
    const documented = tableUnder('### What the panel’s unit may write').flatMap((row) => pathsIn(row[0] ?? ''));
    expect(documented.length).toBeGreaterThan(5);
    expect(writable.map((entry) => entry.replace(/^-/, '')).sort()).toEqual([...documented].sort());
  });

  it('each writable path the unit requires is made at boot by tmpfiles.d', () => {
    // a "-" path is a daemon's folder, made by its package
    for (const entry of writable.filter((entry) => !entry.startsWith('-'))) {
      expect(made.has(entry), `${entry} has no tmpfiles.d line`).toBe(true);
    }
  });

  it('tmpfiles.d gives each folder of the owners table its owner and mode', () => {
    const rows = tableUnder('### Owners and modes');
    let compared = 0;
    for (const [where, owner, mode] of rows) {
      for (const file of pathsIn(where ?? '')) {
        const line = made.get(file);
        if (!line) continue;
        expect({ file, owner: line.owner, mode: line.mode }).toEqual({
          file,
          owner: (owner ?? '').replace(/`/g, '').split(' ')[0],
          mode,
        });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('PHP-FPM’s socket folder is made 0755 at boot, at the default of PANEL_WEB_PHP_SOCKETS', () => {
    expect(made.get('/run/php/panel247-8.2')).toEqual({ owner: 'root:root', mode: '0755' });
  });

  // owners are given for real: only root can (the test suite runs as root)
  it.skipIf(process.getuid?.() !== 0)(
    'systemd-tmpfiles makes them in an empty root, without a word, and again over its own work',
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'p247-tmpfiles-'));
      // the users and groups the lines name, in the root's own /etc (tmpfiles --root reads those)
      mkdirSync(path.join(root, 'etc'));
      writeFileSync(
        path.join(root, 'etc/passwd'),
        'root:x:0:0::/root:/bin/sh\nmail:x:8:8::/var/mail:/usr/sbin/nologin\nwww-data:x:33:33::/var/www:/usr/sbin/nologin\nopendkim:x:110:120::/run/opendkim:/usr/sbin/nologin\n',
      );
      writeFileSync(
        path.join(root, 'etc/group'),
        'root:x:0:\nmail:x:8:\nwww-data:x:33:\nopendkim:x:120:\npanel247:x:990:\n',
      );
      const dir = path.join(REPO, 'deploy/tmpfiles.d');
      const files = readdirSync(dir).map((name) => path.join(dir, name));
      const ids: Record<string, number> = { root: 0, mail: 8, 'www-data': 33, opendkim: 120, panel247: 990 };
      const users: Record<string, number> = { root: 0, mail: 8, 'www-data': 33, opendkim: 110 };
      for (let pass = 0; pass < 2; pass++) {
        const { stdout, stderr } = await run(TMPFILES, [`--root=${root}`, '--create', ...files]);
        expect(`${stdout}${stderr}`.trim()).toBe('');
        for (const [file, line] of made) {
          const info = statSync(path.join(root, file));
          const [user, group] = line.owner.split(':') as [string, string];
          expect({
            file,
            uid: info.uid,
            gid: info.gid,
            mode: (info.mode & 0o7777).toString(8).padStart(4, '0'),
          }).toEqual({
            file,
            uid: users[user],
            gid: ids[group],
            mode: line.mode,
          });
        }
      }
    },
  );
});
