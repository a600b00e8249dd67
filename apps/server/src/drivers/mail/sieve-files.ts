import { lstat, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Maildirs } from './maildirs.ts';

/** The panel's script among the mailbox's Sieve scripts (~/sieve/panel247.sieve). */
const SCRIPT = 'panel247';
/** Pigeonhole's file storage as deploy/dovecot sets it: `sieve = file:~/sieve;active=~/.dovecot.sieve`. */
const FOLDER = 'sieve';
const ACTIVE = '.dovecot.sieve';
/**
 * The spam filter, which Dovecot runs before the active script (`sieve_before` in deploy/dovecot):
 * in the home, outside ~/sieve, so ManageSieve neither lists nor replaces it.
 */
const SPAM = 'panel247-spam';

/**
 * A mailbox's Sieve scripts on disk, laid out as Pigeonhole's file storage (and so ManageSieve)
 * keeps them: scripts in ~/sieve, the active one linked from ~/.dovecot.sieve. The panel writes
 * one script of its own and never deletes another: a script someone activated elsewhere is only
 * switched off when the mail service was told to (the user agreed), and a hand-written
 * ~/.dovecot.sieve is moved into ~/sieve first.
 */
export class SieveFiles {
  constructor(private readonly maildirs: Maildirs) {}

  /** The active script when it is not the panel's: its name, or null. */
  async foreignActive(domain: string, localPart: string): Promise<string | null> {
    const active = path.join(this.maildirs.home(domain, localPart), ACTIVE);
    const info = await lstat(active).catch(() => undefined);
    if (!info) return null;
    if (!info.isSymbolicLink()) return ACTIVE;
    const name = path.basename(await readlink(active)).replace(/\.sieve$/, '');
    return name === SCRIPT ? null : name;
  }

  /** The panel's script as it is on disk (null: none), and whether it is the active one. */
  async current(domain: string, localPart: string): Promise<{ script: string | null; active: boolean }> {
    const home = this.maildirs.home(domain, localPart);
    const script = await readFile(path.join(home, FOLDER, `${SCRIPT}.sieve`), 'utf8').catch(() => null);
    const link = await readlink(path.join(home, ACTIVE)).catch(() => null);
    return { script, active: link !== null && path.basename(link) === `${SCRIPT}.sieve` };
  }

  /** The spam filter as it is on disk (null: none). */
  currentSpam(domain: string, localPart: string): Promise<string | null> {
    return readFile(path.join(this.maildirs.home(domain, localPart), `${SPAM}.sieve`), 'utf8').catch(() => null);
  }

  /** Writes the spam filter (the next delivery compiles it). */
  async writeSpam(domain: string, localPart: string, script: string): Promise<void> {
    const own = await this.maildirs.makeOwned(domain, localPart);
    await writeAside(path.join(this.maildirs.home(domain, localPart), `${SPAM}.sieve`), script, own);
  }

  async removeSpam(domain: string, localPart: string): Promise<void> {
    const home = this.maildirs.home(domain, localPart);
    for (const file of [`${SPAM}.sieve`, `${SPAM}.svbin`]) await rm(path.join(home, file), { force: true });
  }

  /** Writes the panel's script and makes it the active one. */
  async activate(domain: string, localPart: string, script: string, now: number): Promise<void> {
    const own = await this.maildirs.makeOwned(domain, localPart, FOLDER);
    const home = this.maildirs.home(domain, localPart);
    const active = path.join(home, ACTIVE);
    const info = await lstat(active).catch(() => undefined);
    if (info && !info.isSymbolicLink()) await rename(active, path.join(home, FOLDER, `kept-${now}.sieve`));
    await writeAside(path.join(home, FOLDER, `${SCRIPT}.sieve`), script, own);
    const link = `${active}.tmp`;
    await rm(link, { force: true });
    await symlink(`${FOLDER}/${SCRIPT}.sieve`, link);
    await own(link);
    await rename(link, active);
  }

  /** Switches the panel's script off and removes it; another active script stays as it is. */
  async remove(domain: string, localPart: string): Promise<void> {
    const home = this.maildirs.home(domain, localPart);
    if ((await this.foreignActive(domain, localPart)) === null) await rm(path.join(home, ACTIVE), { force: true });
    for (const file of [`${SCRIPT}.sieve`, `${SCRIPT}.svbin`]) await rm(path.join(home, FOLDER, file), { force: true });
  }
}

/** Written aside and renamed into place: a delivery never reads half a script. */
async function writeAside(file: string, script: string, own: (file: string) => Promise<void>): Promise<void> {
  await writeFile(`${file}.tmp`, script, { mode: 0o644 });
  await own(`${file}.tmp`);
  await rename(`${file}.tmp`, file);
}
