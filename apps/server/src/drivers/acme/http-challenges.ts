import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DaemonError } from '../../errors.ts';
import type { ChallengeResponder } from './acme.driver.ts';

/** An ACME token is base64url (RFC 8555 §8.1): never a path, whatever a CA sends. */
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

/**
 * HTTP-01 answers as files under <dir>/.well-known/acme-challenge/, which every HTTP server block
 * of the web driver serves (deploy/nginx/server.conf.template), whatever the host: readable by
 * nginx's workers, written atomically enough for a file of one line.
 */
export class HttpChallengeFiles implements ChallengeResponder {
  readonly type = 'http-01' as const;
  private readonly folder: string;

  constructor(dir: string) {
    this.folder = path.join(dir, '.well-known', 'acme-challenge');
  }

  private file(token: string): string {
    if (!TOKEN.test(token))
      throw new DaemonError('acme.error.ca', `a token that is not base64url: ${token.slice(0, 40)}`);
    return path.join(this.folder, token);
  }

  async present(_name: string, token: string, value: string): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o755 });
    for (const dir of [this.folder, path.dirname(this.folder), path.dirname(path.dirname(this.folder))]) {
      await chmod(dir, 0o755);
    }
    await writeFile(this.file(token), value, { mode: 0o644 });
  }

  async remove(_name: string, token: string): Promise<void> {
    await rm(this.file(token), { force: true });
  }
}
