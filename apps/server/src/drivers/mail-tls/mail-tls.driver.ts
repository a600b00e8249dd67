import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DaemonError } from '../../errors.ts';
import { type Executor, execute } from '../users/system.driver.ts';

/** One certificate the mail daemons serve: its names (the first is its folder's), its key and chain. */
export interface MailCertificateFiles {
  hosts: string[];
  keyPem: string;
  /** The leaf first, then the intermediates. */
  fullchainPem: string;
}

export interface MailTlsSettings {
  /** The folder Dovecot and Postfix read (PANEL_MAIL_TLS_DIR; see deploy/dovecot and deploy/postfix-mail). */
  dir: string;
  /** dovecot.conf of the running Dovecot (`doveadm -c`); none: Dovecot is not reloaded. */
  doveadmConfig?: string;
  /** Postfix's configuration folder (`postfix -c`); none: Postfix is not reloaded. */
  postfixConfigDir?: string;
  commands?: { doveadm: string; postfix: string; postmap: string };
}

const DEBIAN_COMMANDS = { doveadm: '/usr/bin/doveadm', postfix: '/usr/sbin/postfix', postmap: '/usr/sbin/postmap' };

/** A host name as it may go into a path and a daemon's configuration: lower-case LDH labels only. */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function isMailTlsHost(host: string): boolean {
  return HOST_NAME.test(host);
}

/**
 * The mail daemons' certificates (the layout deploy/dovecot and deploy/postfix-mail read):
 *
 *   default/key.pem, default/fullchain.pem   what a client that sends no known SNI name gets
 *   hosts/<name>/key.pem, …/fullchain.pem    one folder per certificate
 *   dovecot-sni.conf                         `local_name` blocks, Dovecot's `!include_try`
 *   postfix-sni, postfix-sni.db              tls_server_sni_maps (`postmap -F`: the files inlined)
 *
 * Every file is written aside and renamed into place, so a daemon reloading meanwhile reads the
 * old file or the new one, never half of one; the whole set is written before either daemon is
 * told, and both reloads keep the connections they have (Dovecot's and Postfix's `reload`). Keys
 * are root's 0600: both daemons read them as root before giving up privileges.
 */
export class MailTlsDriver {
  private readonly commands: { doveadm: string; postfix: string; postmap: string };

  constructor(
    private readonly settings: MailTlsSettings,
    private readonly run: Executor = execute,
  ) {
    this.commands = settings.commands ?? DEBIAN_COMMANDS;
  }

  /** Writes every certificate (`defaultHost`'s also as the default) and reloads both daemons. */
  async install(certificates: MailCertificateFiles[], defaultHost: string): Promise<void> {
    if (certificates.length === 0) return;
    for (const certificate of certificates) {
      const bad = certificate.hosts.find((host) => !isMailTlsHost(host));
      if (bad !== undefined || certificate.hosts.length === 0)
        throw new DaemonError('error.internal', `not a host name for the mail TLS folder: ${bad}`);
    }
    const { dir } = this.settings;
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const chosen =
      certificates.find((certificate) => certificate.hosts.includes(defaultHost)) ??
      (certificates[0] as MailCertificateFiles);
    const folders = certificates.map((certificate) => ({
      certificate,
      folder: path.join(dir, 'hosts', certificate.hosts[0] as string),
    }));
    for (const { certificate, folder } of folders) this.writePair(folder, certificate);
    this.writePair(path.join(dir, 'default'), chosen);

    const byHost = folders.flatMap(({ certificate, folder }) =>
      certificate.hosts.map((host) => ({
        host,
        key: path.join(folder, 'key.pem'),
        chain: path.join(folder, 'fullchain.pem'),
      })),
    );
    atomicWrite(
      path.join(dir, 'dovecot-sni.conf'),
      `# Written by Panel247: one block per mail host name a client may ask for (SNI).\n${byHost
        .map(({ host, key, chain }) => `local_name ${host} {\n  ssl_cert = <${chain}\n  ssl_key = <${key}\n}\n`)
        .join('')}`,
      0o600,
    );
    await this.writePostfixMap(byHost);
    await this.reload();
  }

  private writePair(folder: string, certificate: MailCertificateFiles): void {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
    // the key first: a daemon reading between the two renames takes the old pair's chain with the
    // new key only if it reloads right then, and the reload comes after both
    atomicWrite(path.join(folder, 'key.pem'), certificate.keyPem, 0o600);
    atomicWrite(path.join(folder, 'fullchain.pem'), certificate.fullchainPem, 0o644);
  }

  /**
   * Postfix's SNI table: `postmap -F` reads the key and chain files now and stores their contents
   * in the .db, which is therefore built aside (its own name) and renamed over the one in use.
   */
  private async writePostfixMap(byHost: { host: string; key: string; chain: string }[]): Promise<void> {
    const { dir } = this.settings;
    const aside = path.join(dir, `.postfix-sni.${randomBytes(6).toString('hex')}`);
    try {
      writeFileSync(aside, byHost.map(({ host, key, chain }) => `${host} ${key} ${chain}\n`).join(''), { mode: 0o600 });
      const config = this.settings.postfixConfigDir ? ['-c', this.settings.postfixConfigDir] : [];
      const built = await this.run(this.commands.postmap, [...config, '-F', `hash:${aside}`]);
      if (built.code !== 0) throw new DaemonError('error.internal', `postmap -F: ${built.stderr.trim()}`.slice(0, 500));
      chmodSync(`${aside}.db`, 0o600);
      renameSync(`${aside}.db`, path.join(dir, 'postfix-sni.db'));
      renameSync(aside, path.join(dir, 'postfix-sni'));
    } finally {
      rmSync(aside, { force: true });
      rmSync(`${aside}.db`, { force: true });
    }
  }

  /** Both daemons read their certificates again; the connections they have go on with the old ones. */
  async reload(): Promise<void> {
    const { doveadmConfig, postfixConfigDir } = this.settings;
    const failures: string[] = [];
    if (doveadmConfig) {
      const answer = await this.run(this.commands.doveadm, ['-c', doveadmConfig, 'reload']);
      if (answer.code !== 0) failures.push(`doveadm reload: ${answer.stderr.trim()}`);
    }
    if (postfixConfigDir) {
      const answer = await this.run(this.commands.postfix, ['-c', postfixConfigDir, 'reload']);
      if (answer.code !== 0) failures.push(`postfix reload: ${answer.stderr.trim()}`);
    }
    if (failures.length > 0) throw new DaemonError('error.internal', failures.join('; ').slice(0, 500));
  }
}

/** Writes a file under a hidden name beside its place and renames it there (root's, when run as root). */
function atomicWrite(file: string, content: string, mode: number): void {
  const aside = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(aside, content, { mode, flag: 'wx' });
    chmodSync(aside, mode);
    if (process.getuid?.() === 0) chownSync(aside, 0, 0);
    renameSync(aside, file);
  } finally {
    rmSync(aside, { force: true });
  }
}
