import { chown, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isHostName } from '@panel247/contract/dns-rules';
import { isSelector } from '@panel247/contract/mail-auth-rules';
import type { DkimDriver, SigningKey } from './dkim.driver.ts';

export interface OpenDkimSettings {
  /** Holds KeyTable, SigningTable and keys/<domain>/<selector>.private (deploy/opendkim). */
  dir: string;
  /** OpenDKIM's PidFile: it rereads its tables on SIGUSR1. */
  pidFile: string;
  /** Owner of the files (OpenDKIM's UserID), when the panel runs as root. */
  owner?: { uid: number; gid: number };
}

/**
 * OpenDKIM reading KeyTable and SigningTable files this driver writes. Each domain's keys are
 * files in its own folder (`keys/<domain>/<selector>.private`, mode 0600, OpenDKIM's user): the
 * tables are rebuilt from those folders, never from the database, so a change costs the domain's
 * key files and two small tables, and every instance writing them agrees. Each file is written
 * beside its target and renamed over it, so OpenDKIM never reads half a file. Then OpenDKIM is
 * told to reread them (SIGUSR1); one that is not running reads them when it starts.
 */
export class OpenDkimDriver implements DkimDriver {
  readonly kind = 'opendkim' as const;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly settings: OpenDkimSettings) {}

  private get keysDir(): string {
    return path.join(this.settings.dir, 'keys');
  }

  /** One change at a time in this process: two rebuilds of the tables must not interleave. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  setSigningKeys(domain: string, keys: SigningKey[]): Promise<void> {
    return this.serial(async () => {
      await this.writeDomain(domain, keys);
      await this.writeTables();
      await this.reload();
    });
  }

  sync(domains: Map<string, SigningKey[]>, options: { dryRun: boolean }): Promise<string[]> {
    return this.serial(async () => {
      const onDisk = await this.domainsOnDisk();
      const names = new Set([...domains.keys(), ...onDisk.keys()]);
      const drift: string[] = [];
      for (const name of [...names].sort()) {
        const wanted = domains.get(name) ?? [];
        const held = onDisk.get(name) ?? [];
        let same = wanted.length === held.length;
        for (const key of wanted) same &&= (await this.keyOnDisk(name, key.selector)) === key.privateKey;
        if (same) continue;
        drift.push(name);
        if (!options.dryRun) await this.writeDomain(name, wanted);
      }
      if (!options.dryRun) {
        await this.writeTables();
        await this.reload();
      }
      return drift;
    });
  }

  private domainFolder(domain: string): string {
    if (!isHostName(domain) || domain !== domain.toLowerCase()) throw new Error(`not a domain: ${domain}`);
    return path.join(this.keysDir, domain);
  }

  private keyFile(domain: string, selector: string): string {
    if (!isSelector(selector)) throw new Error(`not a selector: ${selector}`);
    return path.join(this.domainFolder(domain), `${selector}.private`);
  }

  private async keyOnDisk(domain: string, selector: string): Promise<string | undefined> {
    return readFile(this.keyFile(domain, selector), 'utf8').catch(() => undefined);
  }

  private async writeDomain(domain: string, keys: SigningKey[]): Promise<void> {
    const folder = this.domainFolder(domain);
    if (keys.length === 0) {
      await rm(folder, { recursive: true, force: true });
      return;
    }
    await this.folder(this.keysDir);
    await this.folder(folder);
    for (const key of keys) await this.write(this.keyFile(domain, key.selector), key.privateKey, 0o600);
    const keep = new Set(keys.map((key) => `${key.selector}.private`));
    for (const entry of await readdir(folder)) {
      if (!keep.has(entry)) await rm(path.join(folder, entry), { force: true });
    }
  }

  /** Domain → selectors, from the key files. */
  private async domainsOnDisk(): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    const domains = await readdir(this.keysDir).catch(() => [] as string[]);
    for (const domain of domains.sort()) {
      if (!isHostName(domain)) continue;
      const selectors = (await readdir(path.join(this.keysDir, domain)).catch(() => [] as string[]))
        .filter((entry) => entry.endsWith('.private'))
        .map((entry) => entry.slice(0, -'.private'.length))
        .filter(isSelector)
        .sort();
      if (selectors.length > 0) found.set(domain, selectors);
    }
    return found;
  }

  /**
   * KeyTable: `name domain:selector:keyfile`; SigningTable (a regular-expression table, OpenDKIM's
   * `refile:`): every sender of the domain, once per key (MultipleSignatures signs with each).
   */
  private async writeTables(): Promise<void> {
    const keyTable: string[] = [];
    const signingTable: string[] = [];
    for (const [domain, selectors] of await this.domainsOnDisk()) {
      for (const selector of selectors) {
        const name = `${selector}._domainkey.${domain}`;
        keyTable.push(`${name} ${domain}:${selector}:${this.keyFile(domain, selector)}`);
        signingTable.push(`*@${domain} ${name}`);
      }
    }
    await this.folder(this.settings.dir);
    await this.write(path.join(this.settings.dir, 'KeyTable'), lines(keyTable), 0o640);
    await this.write(path.join(this.settings.dir, 'SigningTable'), lines(signingTable), 0o640);
  }

  private async reload(): Promise<void> {
    const pid = Number((await readFile(this.settings.pidFile, 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(pid) || pid <= 1) return;
    try {
      process.kill(pid, 'SIGUSR1');
    } catch (error) {
      // A pid file left by a stopped OpenDKIM: the next one reads the tables when it starts.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }

  private async folder(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true, mode: 0o750 });
    if (this.settings.owner) await chown(dir, this.settings.owner.uid, this.settings.owner.gid);
  }

  private async write(file: string, content: string, mode: number): Promise<void> {
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, content, { mode });
    if (this.settings.owner) await chown(temporary, this.settings.owner.uid, this.settings.owner.gid);
    await rename(temporary, file);
  }
}

function lines(entries: string[]): string {
  return entries.length === 0 ? '' : `${entries.join('\n')}\n`;
}
