import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DaemonError } from '../../errors.ts';

/** What restic says when another process holds a lock it needs. */
const LOCKED = /repository is already locked|unable to create lock/i;

/** One snapshot of a repository, as `restic snapshots --json` describes it. */
export interface BackupSnapshot {
  id: string;
  /** Epoch seconds. */
  time: number;
  tags: string[];
  paths: string[];
}

export interface ResticOptions {
  /** Any restic repository: a folder, `sftp:…`, `s3:…`, `rest:…` (their credentials from the environment). */
  repository: string;
  /** The repository's password, in a file (restic reads it; never on a command line). */
  passwordFile: string;
  binary: string;
  /**
   * How long a command waits for a lock another restic holds (a `forget --prune` or `check` takes
   * the repository exclusively) before it fails; restic 0.14 has no --retry-lock of its own.
   */
  lockWaitMs?: number;
}

export interface Retention {
  daily: number;
  weekly: number;
  monthly: number;
  /** Every snapshot younger than this many hours is kept besides the daily/weekly/monthly ones. */
  withinHours?: number;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * restic (Debian's `restic`), the backup engine: deduplicated, encrypted snapshots in any of its
 * repositories. Each call is one restic process with an argument array (never a shell), the
 * repository and its password file in the environment; a failure is a DaemonError with restic's
 * last words.
 */
export class ResticDriver {
  constructor(private readonly options: ResticOptions) {}

  private run(args: string[], repository = this.options.repository): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.binary, args, {
        env: {
          ...process.env,
          RESTIC_REPOSITORY: repository,
          RESTIC_PASSWORD_FILE: this.options.passwordFile,
          // restic's cache speeds up every later run; it lives beside the password, not in $HOME
          RESTIC_CACHE_DIR: path.join(path.dirname(this.options.passwordFile), 'cache'),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4000);
      });
      child.once('error', (error) =>
        reject(new DaemonError('backup.error.engine', `${this.options.binary}: ${error.message}`)),
      );
      child.once('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end();
    });
  }

  private async must(args: string[]): Promise<string> {
    let result = await this.run(args);
    // Another restic (the daily run's prune, a check) holds the repository: wait for it, as
    // restic ≥ 0.16's --retry-lock would, instead of failing a customer's restore.
    const until = Date.now() + (this.options.lockWaitMs ?? 120_000);
    while (result.code !== 0 && LOCKED.test(result.stderr) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      result = await this.run(args);
    }
    if (result.code !== 0) {
      const detail = result.stderr.trim().split('\n').slice(-3).join(' ');
      throw new DaemonError('backup.error.engine', `restic ${args[0]}: ${detail}`.slice(0, 500));
    }
    return result.stdout;
  }

  /**
   * Creates the password file (random, 0600) and the repository when they do not exist yet. An
   * existing repository is opened with its own password: a lost password file is an error, never
   * a new repository over the old one.
   */
  async ensureRepository(): Promise<void> {
    await this.ensurePasswordFile();
    const opened = await this.run(['cat', 'config']);
    if (opened.code === 0) return;
    // Exit code 10 (restic ≥ 0.17) or "does not exist" / "unable to open config file" (0.14): no repository yet.
    if (
      !/does not exist|unable to open config file|Is there a repository at the following location/i.test(opened.stderr)
    ) {
      throw new DaemonError('backup.error.engine', `restic cat config: ${opened.stderr.trim().slice(-300)}`);
    }
    await this.init();
  }

  /**
   * A new password file appears whole or not at all (written aside, then linked into place): two
   * processes making it at once (the daily run and a command) agree on the one that won.
   */
  private async ensurePasswordFile(): Promise<void> {
    const file = this.options.passwordFile;
    if (existsSync(file)) return;
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const aside = `${file}.${randomBytes(6).toString('hex')}`;
    await writeFile(aside, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      await link(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await rm(aside, { force: true });
    }
  }

  /**
   * `restic init`. Two inits of one folder at once (the daily run beside a command) would each
   * write a config and a key of their own, and leave a repository no key opens ("config or key is
   * damaged"): a folder repository is made beside its place and renamed there, so only one wins.
   * A remote one (sftp:, s3:…) is initialised in place.
   */
  private async init(): Promise<void> {
    const repository = this.options.repository;
    if (/^[a-z0-9]+:/.test(repository)) {
      await this.must(['init']);
      return;
    }
    await mkdir(path.dirname(repository), { recursive: true, mode: 0o700 });
    const aside = `${repository}.init-${randomBytes(6).toString('hex')}`;
    try {
      const made = await this.run(['init'], aside);
      if (made.code !== 0)
        throw new DaemonError('backup.error.engine', `restic init: ${made.stderr.trim().slice(-300)}`);
      await rename(aside, repository).catch((error: NodeJS.ErrnoException) => {
        // Another process's repository is there first: it is the one.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(aside, { recursive: true, force: true });
    }
  }

  /**
   * One snapshot of these folders, tagged; answers it, with what it read and what it added. Its
   * id is the short one restic's summary gives (enough to name it in every restic command), so no
   * second restic run is needed to list it.
   */
  async backup(paths: string[], tags: string[]): Promise<BackupSnapshot & { sizeBytes: number; addedBytes: number }> {
    const started = Math.floor(Date.now() / 1000);
    // One host name for every instance: snapshots group by it, and any instance may take a run.
    const args = [
      'backup',
      '--json',
      '--one-file-system',
      '--host',
      'panel247',
      ...tags.flatMap((tag) => ['--tag', tag]),
      '--',
      ...paths,
    ];
    const output = await this.must(args);
    const summary = output
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            message_type?: string;
            snapshot_id?: string;
            total_bytes_processed?: number;
            data_added?: number;
          },
      )
      .find((message) => message.message_type === 'summary');
    if (!summary?.snapshot_id || !/^[0-9a-f]{8,64}$/.test(summary.snapshot_id)) {
      throw new DaemonError('backup.error.engine', 'restic backup: no summary');
    }
    return {
      id: summary.snapshot_id,
      time: started,
      tags,
      paths,
      sizeBytes: summary.total_bytes_processed ?? 0,
      addedBytes: summary.data_added ?? 0,
    };
  }

  /** The snapshots carrying every one of these tags, oldest first. */
  async snapshots(tags: string[]): Promise<BackupSnapshot[]> {
    const args = ['snapshots', '--json', ...(tags.length > 0 ? ['--tag', tags.join(',')] : [])];
    const listed = JSON.parse((await this.must(args)) || '[]') as {
      id: string;
      time: string;
      tags?: string[];
      paths: string[];
    }[];
    return listed
      .map((s) => ({ id: s.id, time: Math.floor(Date.parse(s.time) / 1000), tags: s.tags ?? [], paths: s.paths }))
      .sort((a, b) => a.time - b.time);
  }

  /** Restores what the include patterns name (absolute paths) under `target`, keeping their full paths. */
  async restore(snapshotId: string, include: string[], target: string): Promise<void> {
    if (!/^[0-9a-f]{8,64}$/.test(snapshotId)) throw new DaemonError('backup.error.snapshot', snapshotId);
    await this.must([
      'restore',
      snapshotId,
      '--target',
      target,
      ...include.flatMap((pattern) => ['--include', pattern]),
    ]);
  }

  /** Applies the retention to the snapshots of each tag group and removes the data no snapshot needs. */
  async forget(tags: string[], keep: Retention): Promise<void> {
    await this.must([
      'forget',
      '--prune',
      '--group-by',
      'tags',
      ...(tags.length > 0 ? ['--tag', tags.join(',')] : []),
      '--keep-daily',
      String(keep.daily),
      '--keep-weekly',
      String(keep.weekly),
      '--keep-monthly',
      String(keep.monthly),
      // every snapshot of the last hours too: keep-daily keeps one a day, and a backup the
      // customer took this morning must not vanish at the day's run
      ...(keep.withinHours ? ['--keep-within', `${keep.withinHours}h`] : []),
    ]);
  }

  /** These snapshots forgotten, and the data no other snapshot needs removed; nothing for none. */
  async forgetSnapshots(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.must(['forget', '--prune', ...ids]);
  }

  /** restic's consistency check of the repository; throws with what it found. */
  async check(): Promise<string> {
    return (await this.must(['check'])).trim();
  }

  /** Removes stale locks a killed run left (restic refuses to write while one is there). */
  async unlock(): Promise<void> {
    await this.must(['unlock']);
  }
}
