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
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { ErrorLogLine } from '@panel247/contract/hosting';
import { readErrorLog } from './error-log.ts';
import type { WebDriver, WebService, WebServiceHosts } from './web.driver.ts';
import {
  type RenderedFile,
  type RenderedService,
  type RenderMemo,
  renderHosts,
  renderService,
  serviceLogFiles,
  sitesInclude,
  Templates,
  type WebRenderSettings,
} from './web-render.ts';

export interface FileWebOptions extends WebRenderSettings {
  /** <configDir>/live/<service> is the live folder of a service (a symlink to services/<service>). */
  configDir: string;
  templatesDir: string;
  /** Owner of the service's PHP error log (the pools' user), when the panel runs as root. */
  logOwner?: { uid: number; gid: number };
}

/** A service's files as they are on disk (relative name → content), and when that was read. */
interface KnownFiles {
  files: Map<string, string>;
  /** The modification times of the service's folders: a file added, removed or renamed changes one. */
  stamp: string;
}

/** The folders a rendered service writes into (each file is renamed into one of them). */
const SERVICE_FOLDERS = ['.', 'sites', 'ssl', 'frames', 'parking'];

/**
 * The files of a service live in <configDir>/services/<service>/, and <configDir>/live/<service>
 * is a symbolic link to that folder (the operator's nginx.conf and php-fpm.conf include
 * live/*\/…). Each host has a file of its own (sites/<host>.conf), so a change writes only the
 * files whose content changed, removes those no longer wanted and reloads once:
 *
 * 1. files named by their content (certificates, frame pages) go straight into the folder (nothing
 *    live names a new one yet); changed configuration files are written to a staging folder;
 * 2. the subclass tests the whole configuration with the staged files in place of the live ones;
 * 3. each staged file is renamed over its live one, files no longer wanted are removed, and the
 *    subclass reloads (PHP-FPM only when the pool changed);
 * 4. any failure before the reload removes what was written; a failed reload puts the previous
 *    contents back and reloads again, so the previous configuration stays live.
 *
 * A service still in the earlier layout (live/<service> linked to versions/<service>.<random>, one
 * file for every host) is moved on its first change or `web sync`: the new folder is written whole
 * and tested, the link swapped with one rename, and the old version removed only after that.
 * The driver remembers what it wrote (checked against the folders' modification times) so a
 * change does not read a thousand files back; `drift` reads the disk and refreshes that memory.
 */
export abstract class FileWebDriver implements WebDriver {
  abstract readonly kind: 'embedded' | 'nginx';
  abstract readonly live: boolean;
  protected readonly liveDir: string;
  protected readonly servicesDir: string;
  /** The earlier layout's folders, one per change; removed as their services move. */
  private readonly versionsDir: string;
  private readonly stagingDir: string;
  private readonly templates: Templates;
  private readonly known = new Map<number, KnownFiles>();
  /** Each service's hosts as last rendered: a change renders again only the hosts it touches. */
  private readonly memos = new Map<number, RenderMemo>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(protected readonly options: FileWebOptions) {
    this.liveDir = path.join(options.configDir, 'live');
    this.servicesDir = path.join(options.configDir, 'services');
    this.versionsDir = path.join(options.configDir, 'versions');
    this.stagingDir = path.join(options.configDir, 'staging');
    this.templates = new Templates(options.templatesDir);
  }

  /**
   * Tests the live configuration with the `changing` services' files as each of `tests` writes
   * them: a folder holding its nginx.conf (naming each of its hosts' files, staged or live) and,
   * when its pool changed, its php-fpm-<version>.conf. A changing service without a test is
   * tested without its files (a removal). A driver that tests nothing leaves `tests` uncalled, so
   * no file is written for them.
   */
  protected abstract check(changing: number[], tests: (() => Promise<string>)[]): Promise<void>;
  /**
   * Makes the daemons read the live files; `phpVersions` are the pools to reload (before and
   * after), `sockets` those of changed pools, which must be open once it answers.
   */
  protected abstract reload(phpVersions: string[], sockets: string[]): Promise<void>;

  /** One change at a time: a test includes the other services' live files. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The service's own folder, which live/<service> links to. */
  protected serviceDir(serviceId: number): string {
    return path.join(this.servicesDir, String(serviceId));
  }

  /** Renders without writing: what `apply` would write, for tests and dry runs. */
  render(service: WebService, dir = this.serviceDir(service.serviceId)): RenderedService {
    return renderService(service, this.options, this.templates, dir, this.memos.get(service.serviceId));
  }

  async apply(service: WebService): Promise<void> {
    // Everything is checked before the first file is written.
    const rendered = this.render(service);
    return this.serial(() => this.applyRendered([{ serviceId: service.serviceId, rendered }]));
  }

  /**
   * Many services at once (a server's `web sync`): written together, tested with one `nginx -t`
   * and made live with one reload per batch, instead of one each (with a thousand services, a
   * thousand reloads of a thousand services). A batch whose test or reload fails is applied again
   * one service at a time, so the one at fault is named and the others are served. Answers each
   * failed service's error.
   */
  async applyMany(services: WebService[]): Promise<Map<number, unknown>> {
    const failures = new Map<number, unknown>();
    const batch: RenderedChange[] = [];
    for (const service of services) {
      try {
        batch.push({ serviceId: service.serviceId, rendered: this.render(service) });
      } catch (error) {
        failures.set(service.serviceId, error);
      }
    }
    for (let start = 0; start < batch.length; start += APPLY_BATCH) {
      const part = batch.slice(start, start + APPLY_BATCH);
      await this.serial(async () => {
        try {
          await this.applyRendered(part);
        } catch {
          for (const one of part) await this.applyRendered([one]).catch((error) => failures.set(one.serviceId, error));
        }
      });
    }
    return failures;
  }

  async applyHosts(change: WebServiceHosts): Promise<boolean> {
    const serviceId = change.serviceId;
    return this.serial(async () => {
      // The memo stands for the other hosts only while the folder is as this driver left it.
      if (!(await this.writtenByUs(serviceId))) return false;
      const dir = this.serviceDir(serviceId);
      const rendered = renderHosts(change, this.options, this.templates, dir, this.memos.get(serviceId));
      if (!rendered) return false;
      await this.applyRendered([{ serviceId, rendered }]);
      return true;
    });
  }

  /** Whether the service's live folder is the one this driver last wrote, untouched since. */
  private async writtenByUs(serviceId: number): Promise<boolean> {
    const dir = this.serviceDir(serviceId);
    const known = this.known.get(serviceId);
    if (!known || !this.memos.has(serviceId)) return false;
    if ((await readlink(this.livePath(serviceId)).catch(() => null)) !== dir) return false;
    return known.stamp === (await this.stamp(dir));
  }

  /**
   * Makes the live files these. The memo of a service's hosts is kept only after a success, so
   * it always describes what is live; a failure drops it and the next change applies the whole
   * service.
   */
  private async applyRendered(batch: RenderedChange[]): Promise<void> {
    try {
      await this.writeRendered(batch);
      for (const { serviceId, rendered } of batch) this.memos.set(serviceId, rendered.memo);
    } catch (error) {
      for (const { serviceId } of batch) this.memos.delete(serviceId);
      throw error;
    }
  }

  /** Writes the services' changed files, tests them together, puts them in place and reloads once. */
  private async writeRendered(batch: RenderedChange[]): Promise<void> {
    await mkdir(this.liveDir, { recursive: true });
    const staged: StagedChange[] = [];
    try {
      for (const { serviceId, rendered } of batch) {
        const change = await this.stage(serviceId, rendered);
        if (change) staged.push(change);
      }
      if (staged.length === 0) return;
      await this.check(
        staged.map((change) => change.serviceId),
        staged.map((change) => () => this.writeTestFolder(change.rendered, change.staged, change.dir, change.staging)),
      );
      for (const change of staged) await this.putStaged(change);
    } catch (error) {
      for (const change of staged) await this.unstage(change);
      throw error;
    } finally {
      for (const change of staged) await rm(change.staging, { recursive: true, force: true });
    }
    // From here the new files are in place: a failure puts the previous ones back.
    for (const change of staged) this.known.delete(change.serviceId);
    const php = [...new Set(staged.flatMap((change) => [...change.php]))];
    const sockets = staged.flatMap((change) =>
      change.php.has(change.rendered.phpVersion) ? [change.rendered.socket] : [],
    );
    // every change is put back on a failure, those the loop below had not reached yet too: their
    // staged files are in their folders already
    const removed = new Map(staged.map((change) => [change, [] as string[]]));
    try {
      // The configuration first: a certificate or page goes once nothing live names it.
      for (const change of staged) {
        for (const name of change.gone.filter(isConfigName)) {
          await rm(path.join(change.dir, name), { force: true });
          removed.get(change)?.push(name);
        }
        if (change.moving) await this.swap(change.live, change.dir);
      }
      await this.reload(php, sockets);
    } catch (error) {
      for (const [change, names] of removed) {
        for (const name of names)
          await writeFileAtomically(path.join(change.dir, name), change.before.get(name) ?? '', 0o644);
        await this.putBack(change);
      }
      await this.reload(php, []).catch(() => undefined);
      throw error;
    }
    for (const change of staged) {
      const { serviceId, dir, gone, moving, linked, rendered } = change;
      for (const name of gone) await rm(path.join(dir, name), { force: true });
      if (moving && linked && this.owns(linked)) await rm(linked, { recursive: true, force: true });
      if (moving) await this.sweep(serviceId);
      this.known.set(serviceId, {
        files: new Map(rendered.files.map((file) => [file.name, file.content])),
        stamp: await this.stamp(dir),
      });
    }
  }

  /**
   * A service's change made ready: files named by their content written in its folder, changed
   * configuration files in a staging folder of their own. null: nothing changed. A failure undoes
   * its own writes.
   */
  private async stage(serviceId: number, rendered: RenderedService): Promise<StagedChange | null> {
    const dir = this.serviceDir(serviceId);
    const live = this.livePath(serviceId);
    const linked = await readlink(live).catch(() => null);
    const moving = linked !== dir;
    // Moving in (a first apply, or the earlier layout): the folder is written whole.
    if (moving) await rm(dir, { recursive: true, force: true });
    const before = moving ? new Map<string, string>() : await this.knownFiles(serviceId);
    const wanted = new Map(rendered.files.map((file) => [file.name, file]));
    const changed = rendered.files.filter((file) => before.get(file.name) !== file.content);
    const gone = [...before.keys()].filter((name) => !wanted.has(name));
    await this.prepareLogs(rendered);
    if (!moving && changed.length === 0 && gone.length === 0) return null;

    const pools = (names: string[]) => names.flatMap((name) => /^php-fpm-(\d+\.\d+)\.conf$/.exec(name)?.[1] ?? []);
    const php = new Set([...pools(changed.map((file) => file.name)), ...pools(gone)]);
    if (moving && linked) for (const version of await phpVersionsIn(linked)) php.add(version);
    const staging = path.join(this.stagingDir, `${serviceId}.${randomBytes(6).toString('hex')}`);
    const staged = changed.filter((file) => file.config);
    const change: StagedChange = {
      serviceId,
      rendered,
      dir,
      live,
      linked,
      moving,
      before,
      changed,
      gone,
      php,
      staging,
      staged,
      written: [],
    };
    try {
      for (const file of changed.filter((file) => !file.config)) {
        await writeFileAtomically(path.join(dir, file.name), file.content, file.mode);
        if (!before.has(file.name)) change.written.push(file.name);
      }
      for (const file of staged) await writeFileAtomically(path.join(staging, file.name), file.content, file.mode);
    } catch (error) {
      await this.unstage(change);
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    return change;
  }

  /** The staged configuration files renamed over the live ones. */
  private async putStaged(change: StagedChange): Promise<void> {
    for (const file of change.staged) {
      await mkdir(path.dirname(path.join(change.dir, file.name)), { recursive: true, mode: 0o755 });
      await rename(path.join(change.staging, file.name), path.join(change.dir, file.name));
      if (!change.before.has(file.name)) change.written.push(file.name);
    }
  }

  /** What a change wrote before it went live, removed. */
  private async unstage(change: StagedChange): Promise<void> {
    if (change.moving) await rm(change.dir, { recursive: true, force: true });
    else for (const name of change.written) await rm(path.join(change.dir, name), { force: true });
  }

  /** A live change undone: the previous link or files back (the caller reloads). */
  private async putBack(change: StagedChange): Promise<void> {
    const { dir, live, linked, moving, before, changed, written } = change;
    if (moving) {
      if (linked) await this.swap(live, linked);
      else await unlink(live).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      return;
    }
    for (const name of written) await rm(path.join(dir, name), { force: true });
    for (const file of changed) {
      const previous = before.get(file.name);
      if (previous !== undefined) await writeFileAtomically(path.join(dir, file.name), previous, file.mode);
    }
  }

  /**
   * The folder a test reads for the service: its nginx.conf naming each host's file (the staged
   * one where it changed; joined as text, as both folders are absolute and the names relative and
   * a service may hold a thousand hosts) and, when the pool changed, the staged pool.
   */
  private async writeTestFolder(
    rendered: RenderedService,
    staged: RenderedFile[],
    dir: string,
    staging: string,
  ): Promise<string> {
    const stagedNames = new Set(staged.map((file) => file.name));
    const hostFiles: string[] = [];
    for (const file of rendered.files) {
      if (!file.config || !file.name.startsWith('sites/')) continue;
      hostFiles.push(`include ${stagedNames.has(file.name) ? staging : dir}/${file.name};`);
    }
    const nginx = rendered.files.find((file) => file.name === 'nginx.conf') as RenderedFile;
    const test = path.join(staging, 'test');
    await writeFileAtomically(
      path.join(test, 'nginx.conf'),
      nginx.content.replace(sitesInclude(dir), hostFiles.join('\n')),
      0o600,
    );
    const pool = staged.find((file) => file.name.startsWith('php-fpm-'));
    if (pool) await writeFileAtomically(path.join(test, pool.name), pool.content, pool.mode);
    return test;
  }

  /** The service's files as the driver last wrote or read them, read again if the folders changed. */
  private async knownFiles(serviceId: number): Promise<Map<string, string>> {
    const dir = this.serviceDir(serviceId);
    const known = this.known.get(serviceId);
    const stamp = await this.stamp(dir);
    if (known && known.stamp === stamp) return known.files;
    const files = await readFiles(dir);
    this.known.set(serviceId, { files, stamp });
    return files;
  }

  private async stamp(dir: string): Promise<string> {
    const times = await Promise.all(
      SERVICE_FOLDERS.map((folder) =>
        stat(path.join(dir, folder), { bigint: true }).then(
          (info) => String(info.mtimeNs),
          () => '-',
        ),
      ),
    );
    return times.join(' ');
  }

  /** The service's logs and the pool's private temporary folder (kept across changes). */
  private async prepareLogs(rendered: RenderedService) {
    const logs = path.dirname(rendered.errorLog);
    await mkdir(logs, { recursive: true, mode: 0o755 });
    await writeFile(rendered.phpErrorLog, '', { flag: 'a' });
    // Sessions of one service are nobody else's business: the pool's user only.
    await mkdir(rendered.phpTempDir, { recursive: true, mode: 0o700 });
    if (rendered.poolOwner) {
      // A pool of the service's own user: the folder is the panel's (nginx's master opens its
      // logs there as root, so the service must not be able to swap them for links), readable and
      // searchable by the service's group alone; the PHP log and the temporary folder are the user's.
      const { uid, gid } = rendered.poolOwner;
      await chown(logs, -1, gid);
      await chmod(logs, 0o750);
      await chown(rendered.phpErrorLog, uid, gid);
      await chmod(rendered.phpErrorLog, 0o640);
      await chown(rendered.phpTempDir, uid, gid);
      await chmod(rendered.phpTempDir, 0o700);
    } else if (this.options.logOwner) {
      const { uid, gid } = this.options.logOwner;
      await chown(rendered.phpErrorLog, uid, gid).catch(() => undefined);
      await chown(rendered.phpTempDir, uid, gid).catch(() => undefined);
    }
  }

  /** Versions of the earlier layout, and staging folders a crash left behind: nothing reads them. */
  private async sweep(serviceId: number) {
    for (const parent of [this.versionsDir, this.stagingDir]) {
      const entries = await readdir(parent).catch(() => [] as string[]);
      for (const entry of entries) {
        if (entry.startsWith(`${serviceId}.`)) await rm(path.join(parent, entry), { recursive: true, force: true });
      }
    }
  }

  async remove(serviceId: number): Promise<void> {
    if (!Number.isSafeInteger(serviceId) || serviceId < 1) throw new Error(`bad service id: ${serviceId}`);
    return this.serial(async () => {
      const live = this.livePath(serviceId);
      const previous = await readlink(live).catch(() => null);
      if (!previous) return;
      await this.check([serviceId], []);
      const versions = await phpVersionsIn(previous);
      await unlink(live);
      this.known.delete(serviceId);
      this.memos.delete(serviceId);
      try {
        await this.reload(versions, []);
      } catch (error) {
        await this.swap(live, previous);
        await this.reload(versions, []).catch(() => undefined);
        throw error;
      }
      if (this.owns(previous)) await rm(previous, { recursive: true, force: true });
      await rm(this.serviceDir(serviceId), { recursive: true, force: true });
      await this.sweep(serviceId);
    });
  }

  errorLog(serviceId: number): Promise<ErrorLogLine[]> {
    if (!Number.isSafeInteger(serviceId) || serviceId < 1) throw new Error(`bad service id: ${serviceId}`);
    const { nginx, php } = serviceLogFiles(this.options.logDir, serviceId);
    return readErrorLog({ nginx, php });
  }

  accessLog(serviceId: number): string {
    if (!Number.isSafeInteger(serviceId) || serviceId < 1) throw new Error(`bad service id: ${serviceId}`);
    return serviceLogFiles(this.options.logDir, serviceId).access;
  }

  abstract reopenLogs(): Promise<void>;

  async liveServices(): Promise<number[]> {
    const entries = await readdir(this.liveDir).catch(() => [] as string[]);
    return entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .sort((a, b) => a - b);
  }

  async drift(service: WebService): Promise<'missing' | 'changed' | null> {
    const dir = this.serviceDir(service.serviceId);
    const live = await readlink(this.livePath(service.serviceId)).catch(() => null);
    if (!live) return 'missing';
    // The earlier layout: the next apply moves it.
    if (live !== dir) return 'changed';
    const rendered = this.render(service, dir);
    return this.serial(async () => {
      // What is on disk, which the next change then compares with (a file edited by hand is written again).
      const present = await readFiles(dir);
      this.known.set(service.serviceId, { files: present, stamp: await this.stamp(dir) });
      if (present.size !== rendered.files.length) return 'changed';
      for (const file of rendered.files) if (present.get(file.name) !== file.content) return 'changed';
      return null;
    });
  }

  /** Whether a link's target is a folder the driver made (never delete what an operator pointed at). */
  private owns(target: string): boolean {
    return [this.servicesDir, this.versionsDir].some((parent) => path.dirname(target) === parent);
  }

  protected livePath(serviceId: number): string {
    return path.join(this.liveDir, String(serviceId));
  }

  /** The live folders of every service but these, for a test configuration. */
  protected async otherLiveServices(changing: number[]): Promise<string[]> {
    const left = new Set(changing.map(String));
    const entries = await readdir(this.liveDir).catch(() => [] as string[]);
    return entries
      .filter((entry) => /^\d+$/.test(entry) && !left.has(entry))
      .sort()
      .map((entry) => path.join(this.liveDir, entry));
  }

  /** Points the live link at `target` with one rename, so readers see the old or the new folder. */
  private async swap(live: string, target: string) {
    // Made outside live/, so no include pattern ever sees the link before it is in place.
    const temporary = path.join(this.options.configDir, `.link-${randomBytes(6).toString('hex')}`);
    await symlink(target, temporary);
    await rename(temporary, live);
  }
}

/** Services a sync applies together: one test and one reload for each batch of this many. */
const APPLY_BATCH = 100;

/** A service's files as rendered, to be made live. */
interface RenderedChange {
  serviceId: number;
  rendered: RenderedService;
}

/** A service's change on its way live (FileWebDriver.stage). */
interface StagedChange extends RenderedChange {
  dir: string;
  live: string;
  /** Where live/<service> pointed before (null: nowhere). */
  linked: string | null;
  /** Moving in: a first apply, or the earlier layout (the folder written whole). */
  moving: boolean;
  before: Map<string, string>;
  changed: RenderedFile[];
  gone: string[];
  /** PHP versions whose pools changed (to test and reload). */
  php: Set<string>;
  staging: string;
  /** The changed configuration files, in `staging` until they go live. */
  staged: RenderedFile[];
  /** Files the change added to the folder (removed if it is undone). */
  written: string[];
}

/**
 * Writes a file beside its target and renames it in place, so a reader sees the old or the new
 * content; created with its mode from the start (a private key is never readable for a moment).
 */
async function writeFileAtomically(target: string, content: string, mode: number) {
  await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, content, { mode, flag: 'wx' });
  await chmod(temporary, mode);
  await rename(temporary, target);
}

/** Every file under `dir` (relative name → content); empty when there is no such folder. */
async function readFiles(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
  const files = new Map<string, string>();
  for (const name of names) {
    const content = await readFile(path.join(dir, name), 'utf8').catch(() => null);
    if (content !== null) files.set(name, content);
  }
  return files;
}

/** nginx.conf, a host's file or a pool: what the daemons read as configuration. */
function isConfigName(name: string): boolean {
  return name === 'nginx.conf' || name.startsWith('sites/') || /^php-fpm-[^/]*\.conf$/.test(name);
}

async function phpVersionsIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  return entries.flatMap((entry) => /^php-fpm-(\d+\.\d+)\.conf$/.exec(entry)?.[1] ?? []);
}
