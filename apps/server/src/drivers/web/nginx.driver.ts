import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DaemonError } from '../../errors.ts';
import { FileWebDriver, type FileWebOptions } from './file-web.driver.ts';
import { acceptingWorkers, newGenerationAccepts } from './nginx-workers.ts';
import { ensurePhpSocketFolder } from './php-socket-folder.ts';
import { readPidFile } from './pid-file.ts';

const run = promisify(execFile);

export interface PhpFpmMaster {
  /** php-fpm<version>, run with -t to test a configuration. */
  binary: string;
  /** The master's php-fpm.conf, which includes <configDir>/live/*\/php-fpm-<version>.conf. */
  config: string;
  /** The master's pid file: a reload is USR2 to that process. */
  pidFile: string;
  /** Instead of USR2: a command (argument array, no shell), e.g. systemctl reload php8.2-fpm. */
  reloadCommand?: string[];
}

export interface NginxWebOptions extends FileWebOptions {
  nginxBinary: string;
  /** nginx's -p, -c and -e: the same for `nginx -t` and `nginx -s reload`. */
  nginxPrefix: string;
  nginxConf: string;
  nginxErrorLog: string;
  /** The master's pid file (the `pid` of nginx.conf): a reload waits for the master's new workers. */
  nginxPidFile: string;
  php: Record<string, PhpFpmMaster>;
  /** How long a reloaded PHP-FPM may take to come back (default 15 s). */
  reloadTimeoutMs?: number;
}

const COMMAND_TIMEOUT_MS = 30_000;

/** nginx's -p, -c and -e: the same for every nginx command the panel runs (-t, -s reload). */
export function nginxArgs(paths: { prefix: string; conf: string; errorLog: string }): string[] {
  return ['-p', paths.prefix.endsWith('/') ? paths.prefix : `${paths.prefix}/`, '-c', paths.conf, '-e', paths.errorLog];
}

function output(error: unknown): string {
  const failure = error as { stderr?: string; stdout?: string; message?: string };
  return [failure.stderr, failure.stdout, failure.message].filter(Boolean).join('\n').trim();
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

/**
 * nginx and PHP-FPM on this machine. A change is tested first with a copy of the live main
 * configurations in which the service's include points at the new files (`nginx -t`,
 * `php-fpm -t` when its pool changed), then put in place and reloaded (`nginx -s reload`, USR2 to
 * the PHP-FPM master only when its pools changed).
 * Commands run with argument arrays, never a shell.
 */
export class NginxWebDriver extends FileWebDriver {
  readonly kind = 'nginx' as const;
  readonly live = true;

  constructor(protected override readonly options: NginxWebOptions) {
    super(options);
  }

  private nginxArgs(config: string): string[] {
    return nginxArgs({ prefix: this.options.nginxPrefix, conf: config, errorLog: this.options.nginxErrorLog });
  }

  /**
   * The main file with its live include replaced by the given files, and `aside` applied: the test
   * must write nothing outside the panel's folder (nginx -t opens the pid file read-write, php-fpm
   * -t its error log), so it works under the unit's read-only system and never touches a live file.
   */
  private async testCopy(
    mainFile: string,
    include: string,
    files: string[],
    line: (file: string) => string,
    aside: (main: string, checkDir: string) => string,
  ) {
    const main = await readFile(mainFile, 'utf8').catch((error: Error) => {
      throw new DaemonError('web.error.refused', `${mainFile}: ${error.message}`);
    });
    if (!main.includes(include)) {
      throw new DaemonError('web.error.refused', `${mainFile} does not contain the line "${include}"`);
    }
    const checkDir = path.join(this.options.configDir, 'check');
    await mkdir(checkDir, { recursive: true });
    const copy = path.join(checkDir, `${path.basename(mainFile)}.${randomBytes(6).toString('hex')}`);
    await writeFile(copy, aside(main.replace(include, files.map(line).join('\n')), checkDir), { mode: 0o600 });
    return copy;
  }

  protected async check(changing: number[], writeTests: (() => Promise<string>)[]): Promise<void> {
    const tests: string[] = [];
    for (const writeTest of writeTests) tests.push(await writeTest());
    const folders = [...(await this.otherLiveServices(changing)), ...tests];
    const nginxCopy = await this.testCopy(
      this.options.nginxConf,
      `include ${this.liveDir}/*/nginx.conf;`,
      folders.map((folder) => path.join(folder, 'nginx.conf')),
      (file) => `include ${file};`,
      (main, checkDir) => withNginxTestPid(main, path.join(checkDir, 'nginx-test.pid')),
    );
    try {
      await run(this.options.nginxBinary, ['-t', '-q', ...this.nginxArgs(nginxCopy)], { timeout: COMMAND_TIMEOUT_MS });
    } catch (error) {
      throw new DaemonError('web.error.refused', `nginx -t: ${output(error)}`);
    } finally {
      await rm(nginxCopy, { force: true });
    }
    for (const version of Object.keys(this.options.php)) {
      const pool = `php-fpm-${version}.conf`;
      // Only a pool that changed is tested (and reloaded).
      if (!(await someExists(tests.map((test) => path.join(test, pool))))) continue;
      const master = this.options.php[version] as PhpFpmMaster;
      const pools: string[] = [];
      for (const folder of folders) if (await exists(path.join(folder, pool))) pools.push(path.join(folder, pool));
      const phpCopy = await this.testCopy(
        master.config,
        `include=${this.liveDir}/*/${pool}`,
        pools,
        (file) => `include=${file}`,
        (main, checkDir) => withPhpTestErrorLog(main, path.join(checkDir, `php-fpm-${version}-test.log`)),
      );
      try {
        await run(master.binary, ['-t', '-y', phpCopy], { timeout: COMMAND_TIMEOUT_MS });
      } catch (error) {
        throw new DaemonError('web.error.refused', `php-fpm -t: ${output(error)}`);
      } finally {
        await rm(phpCopy, { force: true });
      }
    }
  }

  /** USR1 through `nginx -s reopen`: the master opens every log again, by name. */
  async reopenLogs(): Promise<void> {
    try {
      await run(this.options.nginxBinary, ['-s', 'reopen', ...this.nginxArgs(this.options.nginxConf)], {
        timeout: COMMAND_TIMEOUT_MS,
      });
    } catch (error) {
      throw new DaemonError('web.error.reload', `nginx -s reopen: ${output(error)}`);
    }
  }

  protected async reload(phpVersions: string[], sockets: string[]): Promise<void> {
    const timeout = this.options.reloadTimeoutMs ?? 15_000;
    // A master whose pool cannot bind its socket exits on reload: the folder must be there first.
    for (const folder of new Set(sockets.map((socket) => path.dirname(socket)))) await ensurePhpSocketFolder(folder);
    for (const version of phpVersions) {
      const master = this.options.php[version];
      if (!master) continue;
      await this.reloadPhp(master, timeout);
    }
    for (const socket of sockets)
      if (!(await waitFor(() => exists(socket), timeout)))
        throw new DaemonError('web.error.reload', `php-fpm opened no socket ${socket}`);
    const master = await readPidFile(this.options.nginxPidFile);
    const before = master === null ? new Set<number>() : await acceptingWorkers(master);
    try {
      await run(this.options.nginxBinary, ['-s', 'reload', ...this.nginxArgs(this.options.nginxConf)], {
        timeout: COMMAND_TIMEOUT_MS,
      });
    } catch (error) {
      throw new DaemonError('web.error.reload', `nginx -s reload: ${output(error)}`);
    }
    // The change is answered once it is served: the master's new workers accept and the old ones
    // no longer do. Without a master to watch (another pid file), the reload stays a signal.
    if (master !== null && before.size > 0 && !(await waitFor(() => newGenerationAccepts(master, before), timeout))) {
      throw new DaemonError('web.error.reload', `nginx (pid ${master}) started no new workers after the reload`);
    }
  }

  /**
   * USR2 makes the master re-execute itself with the new pools. It rewrites its pid file once it
   * is up again; until then another USR2 could arrive before its handlers exist, so the reload
   * waits for that.
   */
  private async reloadPhp(master: PhpFpmMaster, timeoutMs: number) {
    const [command, ...args] = master.reloadCommand ?? [];
    if (command) {
      try {
        await run(command, args, { timeout: COMMAND_TIMEOUT_MS });
      } catch (error) {
        throw new DaemonError('web.error.reload', `${command}: ${output(error)}`);
      }
      return;
    }
    let pid: number;
    let before: bigint;
    try {
      const read = await readPidFile(master.pidFile);
      if (read === null) throw new Error(`no pid in ${master.pidFile}`);
      pid = read;
      before = (await stat(master.pidFile, { bigint: true })).mtimeNs;
      process.kill(pid, 'SIGUSR2');
    } catch (error) {
      throw new DaemonError('web.error.reload', `php-fpm reload: ${(error as Error).message}`);
    }
    const back = await waitFor(async () => {
      const now = await stat(master.pidFile, { bigint: true }).catch(() => null);
      return now !== null && now.mtimeNs !== before;
    }, timeoutMs);
    if (!back) throw new DaemonError('web.error.reload', `php-fpm (pid ${pid}) did not come back after USR2`);
  }
}

const NGINX_PID = /^(\s*)pid\s+[^;]*;/m;

/** nginx.conf with its `pid` in the check folder (added first when the file names none). */
export function withNginxTestPid(main: string, pidFile: string): string {
  return NGINX_PID.test(main) ? main.replace(NGINX_PID, `$1pid ${pidFile};`) : `pid ${pidFile};\n${main}`;
}

const PHP_ERROR_LOG = /^(\s*)error_log\s*=.*$/m;

/** php-fpm.conf with the [global] error_log in the check folder (pools' own logs are php_admin_value). */
export function withPhpTestErrorLog(main: string, logFile: string): string {
  if (PHP_ERROR_LOG.test(main)) return main.replace(PHP_ERROR_LOG, `$1error_log = ${logFile}`);
  return main.replace(/^\[global\]\s*$/m, `[global]\nerror_log = ${logFile}`);
}

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function someExists(files: string[]): Promise<boolean> {
  for (const file of files) if (await exists(file)) return true;
  return false;
}
