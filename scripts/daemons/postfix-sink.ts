import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  execFileAsync,
  freePort,
  type RunningDaemon,
  requireBinary,
  startForeground,
  waitForPort,
  workDir,
} from './daemon-harness.ts';
import { fillDeployTemplate } from './deploy-template.ts';

const MAIL_UID = 8;
const POSTFIX_UID = Number.parseInt(process.env.PANEL_TEST_POSTFIX_UID ?? '', 10);

export interface PostfixSink {
  port: number;
  /** The raw messages delivered to the mailbox so far. */
  messages(): string[];
  waitForMessages(count: number, timeoutMs?: number): Promise<string[]>;
  log(): string;
  stop(): Promise<void>;
}

/** Debian's Postfix on a loopback port, delivering mail for one address into a maildir. */
export async function startPostfixSink(domain: string, mailbox: string): Promise<PostfixSink> {
  const postfix = requireBinary('postfix', 'postfix');
  const dir = await workDir('postfix');
  // Postfix's own users (postfix, mail) must be able to walk into the folder mkdtemp made 0700.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const fill = (template: string) =>
    fillDeployTemplate(`postfix-sink/${template}`, { DIR: dir, PORT: String(port), DOMAIN: domain, MAILBOX: mailbox });
  writeFileSync(path.join(dir, 'main.cf'), fill('main.cf.template'));
  writeFileSync(path.join(dir, 'master.cf'), fill('master.cf.template'));
  for (const sub of ['queue', 'data', 'mail']) mkdirSync(path.join(dir, sub), { recursive: true });
  const postfixUser = await execFileAsync('id', ['-u', 'postfix']).then((r) => Number(r.stdout.trim()));
  chownSync(path.join(dir, 'data'), Number.isNaN(POSTFIX_UID) ? postfixUser : POSTFIX_UID, 0);
  chownSync(path.join(dir, 'mail'), MAIL_UID, MAIL_UID);

  // `check` creates the queue folders with their owners; start-fg keeps the master in the foreground.
  await execFileAsync(postfix, ['-c', dir, 'check']);
  const daemon: RunningDaemon = startForeground(postfix, ['-c', dir, 'start-fg']);
  try {
    await waitForPort(port);
  } catch (error) {
    await daemon.stop();
    throw new Error(`Postfix did not start: ${(error as Error).message}\n${daemon.output()}`);
  }

  const maildir = path.join(dir, 'mail', mailbox, 'new');
  const messages = () => {
    try {
      return readdirSync(maildir)
        .sort()
        .map((file) => readFileSync(path.join(maildir, file), 'utf8'));
    } catch {
      return [];
    }
  };
  const log = () => {
    try {
      return readFileSync(path.join(dir, 'postfix.log'), 'utf8');
    } catch {
      return '';
    }
  };
  return {
    port,
    messages,
    log,
    async waitForMessages(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const found = messages();
        if (found.length >= count) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`expected ${count} message(s) in ${maildir}; Postfix log:\n${log()}`);
    },
    async stop() {
      await execFileAsync(postfix, ['-c', dir, 'stop']).catch(() => undefined);
      await daemon.stop();
    },
  };
}
