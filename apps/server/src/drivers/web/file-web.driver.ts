import { randomBytes } from 'node:crypto';
import {
  chmod,
  chown,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { ErrorLogLine } from '@panel247/contract/hosting';
import { readErrorLog } from './error-log.ts';
import type { WebDriver, WebService } from './web.driver.ts';
import {
  type RenderedService,
  renderService,
  serviceLogFiles,
  Templates,
  type WebRenderSettings,
} from './web-render.ts';

export interface FileWebOptions extends WebRenderSettings {
  /** <configDir>/live/<service> is the live folder of a service (a symlink to its current version). */
  configDir: string;
  templatesDir: string;
  /** Owner of the service's PHP error log (the pools' user), when the panel runs as root. */
  logOwner?: { uid: number; gid: number };
}

/**
 * The files of a service live in <configDir>/versions/<service>.<random>/, and
 * <configDir>/live/<service> is a symbolic link to the current one. A change writes a new version
 * beside the live one, lets the subclass test it, then swaps the link with one rename (atomic)
 * and lets the subclass reload; any failure puts the previous link back and removes the new
 * version, so the previous files stay live.
 */
export abstract class FileWebDriver implements WebDriver {
  abstract readonly kind: 'embedded' | 'nginx';
  abstract readonly live: boolean;
  protected readonly liveDir: string;
  protected readonly versionsDir: string;
  private readonly templates: Templates;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(protected readonly options: FileWebOptions) {
    this.liveDir = path.join(options.configDir, 'live');
    this.versionsDir = path.join(options.configDir, 'versions');
    this.templates = new Templates(options.templatesDir);
  }

  /** Tests the live configuration with `staging` in place of the service's files (null: without them). */
  protected abstract check(serviceId: number, staging: string | null): Promise<void>;
  /** Makes the daemons read the live files; `phpVersions` are the pools' versions before and after. */
  protected abstract reload(phpVersions: string[], socket: string | null): Promise<void>;

  /** One change at a time: a test includes the other services' live files. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Renders without writing: what `apply` would write, for tests and dry runs. */
  render(service: WebService, dir: string): RenderedService {
    return renderService(service, this.options, this.templates, dir);
  }

  async apply(service: WebService): Promise<void> {
    const staging = path.join(this.versionsDir, `${service.serviceId}.${randomBytes(6).toString('hex')}`);
    // Everything is checked before the first file is written.
    const rendered = this.render(service, staging);
    return this.serial(async () => {
      await mkdir(this.liveDir, { recursive: true });
      await mkdir(this.versionsDir, { recursive: true });
      try {
        await this.write(staging, rendered);
        await this.check(service.serviceId, staging);
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        throw error;
      }
      const live = this.livePath(service.serviceId);
      const previous = await readlink(live).catch(() => null);
      const versions = [rendered.phpVersion, ...(previous ? await phpVersionsIn(previous) : [])];
      await this.swap(live, staging);
      try {
        await this.reload([...new Set(versions)], rendered.socket);
      } catch (error) {
        await this.restore(live, previous, versions);
        await rm(staging, { recursive: true, force: true });
        throw error;
      }
      if (previous) await rm(previous, { recursive: true, force: true });
      await this.sweep(service.serviceId, staging);
    });
  }

  /** Versions of the service a crash left behind (never linked): nothing reads them. */
  private async sweep(serviceId: number, keep: string) {
    const entries = await readdir(this.versionsDir).catch(() => [] as string[]);
    for (const entry of entries) {
      const folder = path.join(this.versionsDir, entry);
      if (entry.startsWith(`${serviceId}.`) && folder !== keep) await rm(folder, { recursive: true, force: true });
    }
  }

  async remove(serviceId: number): Promise<void> {
    if (!Number.isSafeInteger(serviceId) || serviceId < 1) throw new Error(`bad service id: ${serviceId}`);
    return this.serial(async () => {
      const live = this.livePath(serviceId);
      const previous = await readlink(live).catch(() => null);
      if (!previous) return;
      await this.check(serviceId, null);
      const versions = await phpVersionsIn(previous);
      await unlink(live);
      try {
        await this.reload(versions, null);
      } catch (error) {
        await this.restore(live, previous, versions);
        throw error;
      }
      await rm(previous, { recursive: true, force: true });
    });
  }

  errorLog(serviceId: number): Promise<ErrorLogLine[]> {
    if (!Number.isSafeInteger(serviceId) || serviceId < 1) throw new Error(`bad service id: ${serviceId}`);
    const { nginx, php } = serviceLogFiles(this.options.logDir, serviceId);
    return readErrorLog({ nginx, php });
  }

  async liveServices(): Promise<number[]> {
    const entries = await readdir(this.liveDir).catch(() => [] as string[]);
    return entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .sort((a, b) => a - b);
  }

  async drift(service: WebService): Promise<'missing' | 'changed' | null> {
    const live = await readlink(this.livePath(service.serviceId)).catch(() => null);
    if (!live) return 'missing';
    // rendered for the live folder itself: the files name their own folder
    const rendered = this.render(service, live);
    const present = (await readdir(live, { recursive: true, withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(live, path.join(entry.parentPath, entry.name)))
      .sort();
    const wanted = rendered.files.map((file) => file.name).sort();
    if (present.join('\n') !== wanted.join('\n')) return 'changed';
    for (const file of rendered.files) {
      const content = await readFile(path.join(live, file.name), 'utf8').catch(() => null);
      if (content !== file.content) return 'changed';
    }
    return null;
  }

  protected livePath(serviceId: number): string {
    return path.join(this.liveDir, String(serviceId));
  }

  /** The live folders of every other service, for a test configuration. */
  protected async otherLiveServices(serviceId: number): Promise<string[]> {
    const entries = await readdir(this.liveDir).catch(() => [] as string[]);
    return entries
      .filter((entry) => /^\d+$/.test(entry) && entry !== String(serviceId))
      .sort()
      .map((entry) => path.join(this.liveDir, entry));
  }

  private async write(dir: string, rendered: RenderedService) {
    await mkdir(dir, { recursive: true, mode: 0o755 });
    for (const file of rendered.files) {
      const target = path.join(dir, file.name);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
      // Private keys are created 0600 from the start, never readable for a moment.
      await writeFile(target, file.content, { mode: file.mode, flag: 'wx' });
      await chmod(target, file.mode);
    }
    const logs = path.dirname(rendered.errorLog);
    await mkdir(logs, { recursive: true, mode: 0o755 });
    await writeFile(rendered.phpErrorLog, '', { flag: 'a' });
    // Sessions of one service are nobody else's business: the pool's user only.
    await mkdir(rendered.phpTempDir, { recursive: true, mode: 0o700 });
    if (this.options.logOwner) {
      const { uid, gid } = this.options.logOwner;
      await chown(rendered.phpErrorLog, uid, gid).catch(() => undefined);
      await chown(rendered.phpTempDir, uid, gid).catch(() => undefined);
    }
  }

  /** Points the live link at `target` with one rename, so readers see the old or the new folder. */
  private async swap(live: string, target: string) {
    // Made outside live/, so no include pattern ever sees the link before it is in place.
    const temporary = path.join(this.options.configDir, `.link-${randomBytes(6).toString('hex')}`);
    await symlink(target, temporary);
    await rename(temporary, live);
  }

  private async restore(live: string, previous: string | null, versions: string[]) {
    if (previous) await this.swap(live, previous);
    else await unlink(live).catch(() => undefined);
    await this.reload(versions, null).catch(() => undefined);
  }
}

async function phpVersionsIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  return entries.flatMap((entry) => /^php-fpm-(\d+\.\d+)\.conf$/.exec(entry)?.[1] ?? []);
}
