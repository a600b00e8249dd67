import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { SyncOptions } from '../sync-options.ts';

/**
 * A service home `<PANEL_HOSTING_ROOT>/<domain>` as isolation needs it: owned by the service's
 * user (its PHP and FTP write there), group the web server's (nginx reads what it serves through
 * the group) and mode 0750, so no other service's user can enter it. Only the home itself is
 * checked: what is inside is the customer's, reached by the service's user, never by the panel.
 */
export interface HomeOwnership {
  uid: number;
  gid: number;
  mode: number;
}

/** The mode of every service home. */
export const HOME_MODE = 0o750;

export type HomeProblem = 'missing' | 'not_a_folder' | 'owner' | 'group' | 'mode' | 'outside_root';

export interface HomeDrift {
  home: string;
  problems: HomeProblem[];
  /** Whether it was put right (never on a dry run, for a file or link in its place, or a path outside the root). */
  repaired: boolean;
  error?: string;
}

/** A domain as a folder name: a DNS name in punycode, nothing that could climb or hide a path. */
const DOMAIN_FOLDER = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * Checks and repairs service homes' owner, group and mode. The home is opened without following
 * a link (O_NOFOLLOW) and changed through that open folder (fchown, fchmod), so a link put in its
 * place is reported and never followed; the hosting root above it is the operator's, which no
 * customer can write.
 */
export class HomeOwners {
  constructor(private readonly root: string) {}

  /** The home of a domain; throws for anything that is not a plain domain name. */
  home(domain: string): string {
    if (!DOMAIN_FOLDER.test(domain)) throw new Error(`not a domain: ${JSON.stringify(domain)}`);
    return path.join(path.resolve(this.root), domain);
  }

  /**
   * Compares the home with `wanted` and, unless `dryRun`, creates it when missing and sets what
   * differs. Answers nothing when the home is as it should be.
   */
  async repair(domain: string, wanted: HomeOwnership, options: SyncOptions): Promise<HomeDrift | undefined> {
    let home: string;
    try {
      home = this.home(domain);
    } catch {
      return { home: path.join(path.resolve(this.root), domain), problems: ['outside_root'], repaired: false };
    }
    const info = await lstat(home).catch(() => undefined);
    if (info && !info.isDirectory()) return { home, problems: ['not_a_folder'], repaired: false };
    const problems: HomeProblem[] = [];
    if (!info) problems.push('missing');
    else {
      if (info.uid !== wanted.uid) problems.push('owner');
      if (info.gid !== wanted.gid) problems.push('group');
      if ((info.mode & 0o7777) !== wanted.mode) problems.push('mode');
    }
    if (problems.length === 0) return undefined;
    if (options.dryRun) return { home, problems, repaired: false };
    try {
      if (!info) {
        await mkdir(path.dirname(home), { recursive: true });
        await mkdir(home, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
      }
      await this.apply(home, wanted);
      return { home, problems, repaired: true };
    } catch (error) {
      return { home, problems, repaired: false, error: (error as Error).message };
    }
  }

  /** Sets owner, group and mode through the opened folder itself (a link in its place fails to open). */
  private async apply(home: string, wanted: HomeOwnership): Promise<void> {
    const handle = await open(home, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      await handle.chown(wanted.uid, wanted.gid);
      await handle.chmod(wanted.mode);
    } finally {
      await handle.close();
    }
  }
}
