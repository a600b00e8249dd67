import { type ExecFileOptions, execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** What a step did, said to the operator line by line. */
export type Say = (line: string) => void;

export interface RunOptions {
  /** Text given on standard input (SQL for psql: its variables are only interpolated there). */
  input?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Exit codes that are answers rather than failures (dpkg-query's 1: not installed). */
  allowedCodes?: number[];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command as an argument array, never through a shell; a failure says the command and its output. */
export async function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const execOptions: ExecFileOptions = {
    env: options.env ?? process.env,
    // a folder every user may enter (psql as postgres, say), whatever the installer's own is
    cwd: options.cwd ?? '/',
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  };
  const child = execFileAsync(command, [...args], execOptions);
  // no command of the install reads a terminal: standard input is the given text or nothing
  // (a command that exits without reading it closes the pipe: not an error of the install)
  child.child.stdin?.on('error', () => {});
  child.child.stdin?.end(options.input ?? '');
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout: String(stdout), stderr: String(stderr) };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    const code = typeof failed.code === 'number' ? failed.code : -1;
    const result = { code, stdout: String(failed.stdout ?? ''), stderr: String(failed.stderr ?? '') };
    if (options.allowedCodes?.includes(code)) return result;
    // the arguments may hold no secret: secrets reach commands on standard input only
    throw new Error(`${command} ${args.join(' ')} failed (${failed.code}):\n${result.stderr || result.stdout}`.trim());
  }
}

export interface FileSpec {
  mode: number;
  uid?: number;
  gid?: number;
}

/**
 * Writes a file only when its content, mode or owner differ from what is wanted; true when it
 * changed something (so the daemon reading it is restarted, and a second run says nothing changed).
 */
export function writeIfChanged(file: string, content: string, spec: FileSpec): boolean {
  mkdirSync(path.dirname(file), { recursive: true });
  let changed = false;
  if (!existsSync(file) || readFileSync(file, 'utf8') !== content) {
    // made with its final mode, so a secret is never readable by others for a moment
    writeFileSync(file, content, { mode: spec.mode });
    changed = true;
  }
  const stat = statSync(file);
  if ((stat.mode & 0o7777) !== spec.mode) {
    chmodSync(file, spec.mode);
    changed = true;
  }
  const uid = spec.uid ?? 0;
  const gid = spec.gid ?? 0;
  if (stat.uid !== uid || stat.gid !== gid) {
    chownSync(file, uid, gid);
    changed = true;
  }
  return changed;
}

/** A group's or user's numeric id from the system's databases, or undefined when it does not exist. */
export async function groupId(name: string): Promise<number | undefined> {
  const { code, stdout } = await run('getent', ['group', name], { allowedCodes: [2] });
  return code === 0 ? Number(stdout.split(':')[2]) : undefined;
}

export async function userId(name: string): Promise<number | undefined> {
  const { code, stdout } = await run('getent', ['passwd', name], { allowedCodes: [2] });
  return code === 0 ? Number(stdout.split(':')[2]) : undefined;
}

export async function requiredGroupId(name: string): Promise<number> {
  const id = await groupId(name);
  if (id === undefined) throw new Error(`group ${name} does not exist (its package should have made it)`);
  return id;
}

export async function requiredUserId(name: string): Promise<number> {
  const id = await userId(name);
  if (id === undefined) throw new Error(`user ${name} does not exist (its package should have made it)`);
  return id;
}

/** A folder with the given owner and mode, made or put right; true when it changed. */
export function ensureFolder(folder: string, mode: number, uid: number, gid: number): boolean {
  let changed = false;
  mkdirSync(folder, { recursive: true });
  const stat = statSync(folder);
  if ((stat.mode & 0o7777) !== mode) {
    chmodSync(folder, mode);
    changed = true;
  }
  if (stat.uid !== uid || stat.gid !== gid) {
    chownSync(folder, uid, gid);
    changed = true;
  }
  return changed;
}

/**
 * A system user with a group of its own, no shell and `home` (0750), and its private folders
 * (0700: sessions, temporary files, logs): the identity of one PHP pool, whose sessions no other
 * pool may read.
 */
export async function ensurePoolUser(
  name: string,
  home: string,
  folders: readonly string[],
  say: Say,
): Promise<{ uid: number; gid: number }> {
  const ids = await ensureSystemUser(name, home, say);
  let changed = ensureFolder(home, 0o750, ids.uid, ids.gid);
  for (const folder of folders) changed = ensureFolder(folder, 0o700, ids.uid, ids.gid) || changed;
  if (changed) say(`made ${folders.join(', ')} (0700 ${name})`);
  return ids;
}

async function ensureSystemUser(name: string, home: string, say: Say): Promise<{ uid: number; gid: number }> {
  if ((await userId(name)) === undefined) {
    await run('useradd', [
      '--system',
      '--user-group',
      '--home-dir',
      home,
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      name,
    ]);
    say(`made the system user ${name}`);
  }
  return { uid: await requiredUserId(name), gid: await requiredGroupId(name) };
}

/** A file a step renders, and the unit its change restarts. */
export interface RenderedFile {
  path: string;
  text: string;
  mode: number;
  gid?: number;
  unit: string;
}

/** Writes each file that differs, marks its unit for a restart, and says what it wrote. */
export function writeRenderedFiles(files: readonly RenderedFile[], changedUnits: Set<string>, say: Say): void {
  let unchanged = 0;
  for (const file of files) {
    if (writeIfChanged(file.path, file.text, { mode: file.mode, gid: file.gid })) {
      changedUnits.add(file.unit);
      say(`wrote ${file.path}`);
    } else unchanged++;
  }
  if (unchanged > 0) say(`${unchanged} files already as rendered`);
}
