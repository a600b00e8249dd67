import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config.ts';

/**
 * Where the configuration of a command (or a server started by hand) comes from. The systemd unit
 * hands the panel its settings through `EnvironmentFile=`; a command typed in a shell has none of
 * them, and without this it would open (and create) a new, empty SQLite panel in ./data while the
 * real one lives elsewhere.
 */

/** The file the systemd unit's EnvironmentFile= names (deploy/systemd/panel247.service). */
export const INSTALLED_ENV_FILE = '/etc/panel247/panel247.env';

export type ConfigOrigin =
  /** PANEL_ENV_FILE named a file (read, then overlaid by the environment). */
  | 'env-file'
  /** The environment names the database (PANEL_DATA_DIR, PANEL_DATABASE_URL or PANEL_CONFIG_FILE). */
  | 'environment'
  /** No database named anywhere, but the installed file exists: read it. */
  | 'installed'
  /** Nothing at all: the development defaults (SQLite in ./data). */
  | 'development';

export interface ConfigSource {
  origin: ConfigOrigin;
  /** The environment file read, if any. */
  file?: string;
  /** The environment to load the configuration from (the file's lines, overlaid by the process's). */
  env: NodeJS.ProcessEnv;
}

/** A configuration that cannot be used as found; the message names the file and the fix. */
export class ConfigSourceError extends Error {}

/** Variables that say, on their own, which database to use: then the environment is the configuration. */
const DATABASE_NAMING = ['PANEL_CONFIG_FILE', 'PANEL_DATA_DIR', 'PANEL_DATABASE_URL'];

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The lines of a systemd environment file: `NAME=value`, blank lines and lines starting with `#`
 * or `;` ignored, a value in single or double quotes taken without them (`\"` and `\\` inside
 * double quotes). A `#` inside a value is part of it, as systemd reads it (a password may hold one).
 */
export function parseEnvironmentFile(text: string, file: string): Record<string, string> {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const at = line.indexOf('=');
    const name = at > 0 ? line.slice(0, at).trim() : '';
    if (!NAME.test(name)) {
      problems.push(`line ${index + 1}: not NAME=value`);
      return;
    }
    values[name] = unquote(line.slice(at + 1).trim());
  });
  if (problems.length > 0) throw new ConfigSourceError(`${file}: ${problems.join('; ')}`);
  return values;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\])/g, '$1');
  }
  return value;
}

function readEnvironmentFile(file: string, sudoHint: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES') {
      throw new ConfigSourceError(
        `${file} holds the panel's settings but this user (uid ${process.getuid?.() ?? '?'}) may not read it: ${sudoHint}`,
      );
    }
    throw new ConfigSourceError(`${file}: ${(error as Error).message}`);
  }
  return parseEnvironmentFile(text, file);
}

export interface FindConfigOptions {
  /** The installed file to look for (tests point it elsewhere). */
  installedFile?: string;
  /** What to tell a user who may not read the settings (the command to run as root). */
  sudoHint?: string;
}

const DEFAULT_SUDO_HINT = 'run it as root (sudo) or as the panel247 user (sudo -u panel247)';

/**
 * Which configuration to use: a file PANEL_ENV_FILE names; else the environment when it names the
 * database; else the installed file when it exists (the environment's PANEL_* still override
 * its lines, as for the file PANEL_ENV_FILE names); else the development defaults.
 */
export function findConfigSource(env: NodeJS.ProcessEnv, options: FindConfigOptions = {}): ConfigSource {
  const sudoHint = options.sudoHint ?? DEFAULT_SUDO_HINT;
  const named = env.PANEL_ENV_FILE;
  if (named) {
    const file = path.resolve(named);
    return { origin: 'env-file', file, env: { ...readEnvironmentFile(file, sudoHint), ...withoutEmpty(env) } };
  }
  if (DATABASE_NAMING.some((name) => env[name])) return { origin: 'environment', env };
  const installed = options.installedFile ?? INSTALLED_ENV_FILE;
  if (existsSync(installed)) {
    return {
      origin: 'installed',
      file: installed,
      env: { ...readEnvironmentFile(installed, sudoHint), ...withoutEmpty(env) },
    };
  }
  return { origin: 'development', env };
}

/** An empty variable of the shell must not blank a line of the file. */
function withoutEmpty(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
}

/** One line for the operator: which configuration and which database this command works on. */
export function describeConfigSource(source: ConfigSource, config: AppConfig): string {
  const database = config.databaseUrl
    ? `PostgreSQL at ${redactedUrl(config.databaseUrl)}`
    : `SQLite in ${sqliteFileOf(config)}`;
  switch (source.origin) {
    case 'env-file':
      return `Configuration: ${source.file} (PANEL_ENV_FILE); database: ${database}`;
    case 'installed':
      return `Configuration: ${source.file} (the installed panel's); database: ${database}`;
    case 'environment':
      return `Configuration: the environment's PANEL_* variables${source.env.PANEL_CONFIG_FILE ? ` and ${source.env.PANEL_CONFIG_FILE}` : ''}; database: ${database}`;
    case 'development':
      return `Configuration: none found (no PANEL_* settings, no ${INSTALLED_ENV_FILE}): development defaults; database: ${database}`;
  }
}

function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/** Where the runtime keeps the SQLite database (runtime.ts). */
export function sqliteFileOf(config: AppConfig): string {
  return path.join(config.dataDir, 'panel.sqlite');
}

/**
 * Refuses what would make a command work on the wrong panel: a data folder this user may not use
 * (the installed one is the panel247 user's, 0750), and, for a configuration read from a file,
 * a data folder or SQLite database that does not exist yet (a command must not create a second,
 * empty panel where the file says the real one is; the server creates both at its first start).
 */
export function checkDatabaseReachable(source: ConfigSource, config: AppConfig, sudoHint = DEFAULT_SUDO_HINT): void {
  const setting = source.file ? `PANEL_DATA_DIR in ${source.file}` : 'PANEL_DATA_DIR';
  const firstStart = `start the panel once (systemctl start panel247), which creates it, or correct PANEL_DATA_DIR in ${source.file}.`;
  // Made here by a command run as root, the folder (and a generated secret.key in it) would be
  // root's, and the panel's own user could not use them.
  if (source.file && !existsSync(config.dataDir)) {
    throw new ConfigSourceError(
      `The panel's data folder ${config.dataDir} (${setting}) does not exist. This command does not make it: ${firstStart}`,
    );
  }
  if (existsSync(config.dataDir)) {
    const needs = config.databaseUrl
      ? constants.R_OK | constants.X_OK
      : constants.R_OK | constants.W_OK | constants.X_OK;
    try {
      accessSync(config.dataDir, needs);
    } catch {
      throw new ConfigSourceError(
        `The panel's data folder ${config.dataDir} (${setting}) is not readable${config.databaseUrl ? '' : ' and writable'} by this user (uid ${process.getuid?.() ?? '?'}): ${sudoHint}`,
      );
    }
  }
  if (config.databaseUrl || !source.file) return;
  const file = sqliteFileOf(config);
  if (!existsSync(file)) {
    throw new ConfigSourceError(
      `No panel database at ${file} (${setting}). This command does not create a new, empty panel: ${firstStart}`,
    );
  }
}
