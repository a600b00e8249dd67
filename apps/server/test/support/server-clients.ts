import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import type { MailServerNamespace, WebServerNamespace } from './server-namespace.ts';

const execFileAsync = promisify(execFile);

/**
 * Real clients at a server's own address, as customers and other servers reach it: curl's IMAP
 * and FTP clients, and an SMTP delivery to port 25.
 */

/** curl's IMAP client at the mail server's address, after STARTTLS: code 0 logged in, 67 refused. */
export function imapAt(
  at: Pick<MailServerNamespace, 'ns' | 'imapPort'>,
  user: string,
  password: string,
  urlPath = '/',
  extra: string[] = [],
): Promise<{ code: number; stdout: string }> {
  return execFileAsync('curl', [
    '-s',
    '--max-time',
    '10',
    '--ssl-reqd',
    '-k',
    '--user',
    `${user}:${password}`,
    ...extra,
    `imap://${at.ns.address}:${at.imapPort}${urlPath}`,
  ]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '' }),
  );
}

/** The UID of the inbox's message with that subject (undefined: none), over IMAP. */
export async function uidAt(
  at: Pick<MailServerNamespace, 'ns' | 'imapPort'>,
  user: string,
  password: string,
  subject: string,
): Promise<string | undefined> {
  const answer = await imapAt(at, user, password, '/INBOX', ['-X', `UID SEARCH SUBJECT "${subject}"`]);
  return /\* SEARCH (\d+)/.exec(answer.stdout)?.[1];
}

/** Mail handed to the mail server's port 25, as another server on the Internet hands it. */
export function deliverAt(at: Pick<MailServerNamespace, 'ns' | 'smtpPort'>, to: string, subject: string) {
  return nodemailer
    .createTransport({ host: at.ns.address, port: at.smtpPort, secure: false, ignoreTLS: true })
    .sendMail({ from: 'someone@example.org', to, subject, text: `${subject} body` });
}

/** curl's FTP client uploading `file` as `name` at a web server's address: 0 uploaded, 67 login refused. */
export function ftpUploadAt(
  at: Pick<WebServerNamespace, 'ns' | 'ftpPort'>,
  user: string,
  password: string,
  file: string,
  name: string,
): Promise<number> {
  return execFileAsync('curl', [
    '-s',
    '--max-time',
    '10',
    '--user',
    `${user}:${password}`,
    '-T',
    file,
    `ftp://${at.ns.address}:${at.ftpPort}/${name}`,
  ]).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
}
