import type { DkimAlgorithm } from '@panel247/contract/mail-auth-rules';
import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { createDkimDriver } from '../../drivers/dkim/create-dkim-driver.ts';
import type { DkimDriver, SigningKey } from '../../drivers/dkim/dkim.driver.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { jobKey } from '../../jobs/job-kind.ts';
import { signalWork, waitForWord } from '../../jobs/work-word.ts';
import { type DkimKeysTarget, GIVE_DKIM_KEYS } from './dkim-signing.jobs.ts';
import type { DkimKeyRow } from './mail-auth.repository.ts';
import { mailAuthRepository } from './mail-auth.repository.ts';

/** The DKIM private keys' box (sealed at rest, opened for the signer only). */
export const dkimKeyBox = (secretKey: Buffer) => new SecretBox(secretKey, 'dkim-key');

/** The signer's side as configured: what the mail node runs, and the CLI's repair. */
export function createDkimSigning(db: Db, config: AppConfig, secretKey: Buffer): DkimSigning {
  return new DkimSigning(db, createDkimDriver(config), dkimKeyBox(secretKey));
}

/** How the panel gets a domain's active keys to the signer (DkimKeys calls it after each change). */
export interface DkimKeysDelivery {
  give(target: DkimKeysTarget): Promise<void>;
}

const signal = (serviceId: number) => `dkim:${serviceId}`;

/**
 * The signer's side, on the mail node: the domain's active keys, opened, handed to the signer
 * (GIVE_DKIM_KEYS's handler), and the whole signer made to agree with the database (`sync`, the
 * CLI's and doctor's repair).
 */
export class DkimSigning implements DkimKeysDelivery {
  constructor(
    private readonly db: Db,
    private readonly signer: DkimDriver,
    private readonly secrets: SecretBox,
  ) {}

  /** The signer's kind (`embedded` or `opendkim`), for the CLI's report. */
  get driverKind(): DkimDriver['kind'] {
    return this.signer.kind;
  }

  private opened(key: Pick<DkimKeyRow, 'selector' | 'algorithm' | 'private_key'>): SigningKey {
    return {
      selector: key.selector,
      algorithm: key.algorithm as DkimAlgorithm,
      privateKey: this.secrets.open(key.private_key),
    };
  }

  async give(target: DkimKeysTarget): Promise<void> {
    const keys = await mailAuthRepository.keys(this.db, target.serviceId);
    await this.signer.setSigningKeys(
      target.domain,
      keys.filter((key) => key.state === 'active').map((key) => this.opened(key)),
    );
    signalWork(this.db, signal(target.serviceId));
  }

  /** The signer signs no more for the domain here (its mail moved to another server). */
  async withdraw(domain: string): Promise<void> {
    await this.signer.setSigningKeys(domain, []);
  }

  /** Gives the signer exactly the active keys of every mail domain; answers the domains that differed. */
  async sync(options: { dryRun: boolean }): Promise<string[]> {
    const domains = new Map<string, SigningKey[]>();
    for (const row of await mailAuthRepository.activeKeys(this.db)) {
      const keys = domains.get(row.domain) ?? [];
      keys.push(this.opened(row));
      domains.set(row.domain, keys);
    }
    return this.signer.sync(domains, options);
  }
}

/**
 * The keys sent to the mail node as a job, waited for a short budget: a key should sign before
 * the page that made it says so. A node away leaves the job queued; the signer gets the keys
 * when it is back (and a rotation only starts signing with a key its record resolves).
 */
export function dkimKeysThroughLog(db: Db, jobs: Pick<JobEngine, 'send' | 'find' | 'findByKey'>, waitMs: number) {
  return {
    async give(target: DkimKeysTarget): Promise<void> {
      const sent = await jobs.send(GIVE_DKIM_KEYS, target);
      // `once`: one already waiting takes this change too
      const id = sent ?? (await jobs.findByKey(GIVE_DKIM_KEYS, jobKey(GIVE_DKIM_KEYS, target) as string, 1))[0]?.id;
      if (!id) return;
      await waitForWord(
        db,
        signal(target.serviceId),
        async () => (await jobs.find(GIVE_DKIM_KEYS, id))?.state,
        (state) => state === undefined || state === 'completed' || state === 'failed' || state === 'retry',
        waitMs,
      );
    },
  };
}
