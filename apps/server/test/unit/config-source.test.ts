import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { loadConfig } from '../../src/config.ts';
import {
  ConfigSourceError,
  checkDatabaseReachable,
  findConfigSource,
  parseEnvironmentFile,
} from '../../src/config-source.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'p247-config-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An installed configuration in its own folder: the env file, and the data folder it names. */
function installed(name: string, lines: string[]): { file: string; dataDir: string } {
  const root = path.join(dir, name);
  const dataDir = path.join(root, 'lib');
  mkdirSync(root, { recursive: true });
  const file = path.join(root, 'panel247.env');
  writeFileSync(file, [`PANEL_DATA_DIR=${dataDir}`, ...lines, ''].join('\n'));
  return { file, dataDir };
}

/** The CLI in-process with this environment and installed file: exit code, stdout and stderr. */
async function panel(env: Record<string, string>, installedEnvFile: string, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: async () => '',
    env,
    installedEnvFile,
  });
  return { code, stdout, stderr };
}

describe('systemd environment file', () => {
  it('reads NAME=value lines as systemd does: comments, quotes, a # inside a value', () => {
    const text = [
      '# the panel',
      '; also a comment',
      '',
      'PANEL_DATA_DIR=/var/lib/panel247',
      'PANEL_SECRET_KEY = abc#def',
      `PANEL_SMTP_FROM="Panel \\"Ops\\" <ops@example.com>"`,
      "PANEL_DNS_SPF_INCLUDE='spf.example.net'",
    ].join('\n');
    expect(parseEnvironmentFile(text, 'x.env')).toEqual({
      PANEL_DATA_DIR: '/var/lib/panel247',
      PANEL_SECRET_KEY: 'abc#def',
      PANEL_SMTP_FROM: 'Panel "Ops" <ops@example.com>',
      PANEL_DNS_SPF_INCLUDE: 'spf.example.net',
    });
  });

  it('names the lines it cannot read', () => {
    expect(() => parseEnvironmentFile('PANEL_A=1\nnot a line\n=x', '/etc/p.env')).toThrow(
      '/etc/p.env: line 2: not NAME=value; line 3: not NAME=value',
    );
  });
});

describe('which configuration', () => {
  const absent = path.join(dir, 'absent.env');

  it('takes the environment when it names the database, even with an installed file', () => {
    const { file } = installed('env-wins', []);
    const source = findConfigSource({ PANEL_DATA_DIR: '/tmp/x' }, { installedFile: file });
    expect(source).toEqual({ origin: 'environment', env: { PANEL_DATA_DIR: '/tmp/x' } });
    expect(findConfigSource({ PANEL_CONFIG_FILE: '/tmp/c.json' }, { installedFile: file }).origin).toBe('environment');
  });

  it('reads the installed file when nothing names the database; the environment overrides its lines', () => {
    const { file, dataDir } = installed('found', ['PANEL_LOG_LEVEL=info']);
    const source = findConfigSource({ PANEL_LOG_LEVEL: 'warn', PANEL_DNS_DRIVER: '' }, { installedFile: file });
    expect(source.origin).toBe('installed');
    expect(source.file).toBe(file);
    expect(source.env.PANEL_DATA_DIR).toBe(dataDir);
    expect(source.env.PANEL_LOG_LEVEL).toBe('warn');
  });

  it('reads the file PANEL_ENV_FILE names, before anything else', () => {
    const { file, dataDir } = installed('named', []);
    const source = findConfigSource({ PANEL_ENV_FILE: file }, { installedFile: absent });
    expect(source).toMatchObject({ origin: 'env-file', file, env: { PANEL_DATA_DIR: dataDir } });
    expect(() => findConfigSource({ PANEL_ENV_FILE: absent })).toThrow(ConfigSourceError);
  });

  it('keeps the development defaults when there is nothing at all', () => {
    expect(findConfigSource({}, { installedFile: absent }).origin).toBe('development');
  });

  it('refuses a missing data folder the file points to, even on PostgreSQL', () => {
    const { file, dataDir } = installed('no-folder', ['PANEL_DATABASE_URL=postgres://panel@127.0.0.1/panel']);
    const source = findConfigSource({}, { installedFile: file });
    expect(() => checkDatabaseReachable(source, loadConfig(source.env))).toThrow(
      `The panel's data folder ${dataDir} (PANEL_DATA_DIR in ${file}) does not exist.`,
    );
  });

  it('refuses a missing database the file points to, naming the file and the fix', () => {
    const { file, dataDir } = installed('no-database', []);
    mkdirSync(dataDir);
    const source = findConfigSource({}, { installedFile: file });
    const config = loadConfig(source.env);
    expect(() => checkDatabaseReachable(source, config)).toThrow(
      `No panel database at ${path.join(dataDir, 'panel.sqlite')} (PANEL_DATA_DIR in ${file})`,
    );
    expect(() => checkDatabaseReachable(source, config)).toThrow('systemctl start panel247');
  });
});

describe('the CLI finds the installed panel', () => {
  it('works on the database the installed file names, and says so on stderr', async () => {
    const { file, dataDir } = installed('cli', ['PANEL_SEED_DEMO=false', 'PANEL_LOG_LEVEL=silent']);
    // the panel's first start made the database (here: a run that names it explicitly)
    const made = await panel({ PANEL_DATA_DIR: dataDir, PANEL_LOG_LEVEL: 'silent' }, path.join(dir, 'none'), [
      'brand',
      'list',
      '--json',
    ]);
    expect(made).toMatchObject({ code: 0, stderr: '' });
    const run = await panel({}, file, ['brand', 'list', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `Configuration: ${file} (the installed panel's); database: SQLite in ${path.join(dataDir, 'panel.sqlite')}\n`,
    );
    expect(JSON.parse(run.stdout)).toBeInstanceOf(Array);
  });

  it('refuses instead of creating a database in ./data or where the file points', async () => {
    const { file, dataDir } = installed('cli-missing', []);
    mkdirSync(dataDir);
    const run = await panel({}, file, ['brand', 'list']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`Error: No panel database at ${path.join(dataDir, 'panel.sqlite')}`);
    expect(existsSync(path.join(dataDir, 'panel.sqlite'))).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'tells a user who may not read the installed file to run it as root',
    async () => {
      const { file } = installed('cli-unreadable', []);
      chmodSync(file, 0o600);
      // its folders open to every user (mkdtemp makes 0700), the file itself root's only
      chmodSync(dir, 0o755);
      chmodSync(path.dirname(file), 0o755);
      // root reads anything: drop to nobody for the read, as an operator's own account would be
      const { spawnSync } = await import('node:child_process');
      const script = `import { findConfigSource } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../src/config-source.ts'))};
try { findConfigSource({}, { installedFile: ${JSON.stringify(file)}, sudoHint: 'run it as root' }); } catch (e) { console.log(e.message); }`;
      const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
        cwd: path.resolve(import.meta.dirname, '../../../..'),
      });
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain(
        `${file} holds the panel's settings but this user (uid 65534) may not read it: run it as root`,
      );
    },
  );
});
