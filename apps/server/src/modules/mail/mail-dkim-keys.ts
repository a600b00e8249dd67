import { randomBytes } from 'node:crypto';
import { type DkimAlgorithm, dkimRecordName, dkimRecordValue } from '@panel247/contract/mail-auth-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { ConflictError } from '../../errors.ts';
import type { DkimKeysDelivery } from './dkim-signing.ts';
import { type DkimKeyRow, mailAuthRepository } from './mail-auth.repository.ts';
import { isDkim, type MailDomain, type MailZone } from './mail-auth-domain.ts';
import type { MailRecordLookup } from './mail-auth-lookup.ts';

/** The zone's record of a DKIM key: `selector._domainkey` TXT with the public key. */
export function dkimRecordOf(key: DkimKeyRow) {
  return {
    zona: dkimRecordName(key.selector),
    value: dkimRecordValue(key.algorithm as DkimAlgorithm, key.public_key),
  };
}

/**
 * A mail domain's DKIM keys: made at its first look, sealed at rest, published in a hosted zone,
 * given to the signer in the clear, and rotated (see `MailAuthService`).
 */
export class DkimKeys {
  constructor(
    private readonly db: Db,
    private readonly zone: MailZone,
    private readonly lookup: MailRecordLookup,
    private readonly signing: DkimKeysDelivery,
    private readonly secrets: SecretBox,
    private readonly settings: { retireSeconds: number },
    private readonly now: () => number,
    private readonly generate: (algorithm: DkimAlgorithm) => Promise<{ privateKey: string; publicKey: string }>,
  ) {}

  /**
   * A hosted zone whose DKIM record went (restore defaults, delete all, a delete in the DNS view)
   * gets it back: OpenDKIM keeps signing with the key, and receivers would fail every message.
   */
  async republishMissing(domain: MailDomain): Promise<void> {
    const zoneRecords = await this.zone.recordsForBackup(domain.serviceId);
    if (!zoneRecords) return;
    for (const key of await mailAuthRepository.keys(this.db, domain.serviceId)) {
      const { zona, value } = dkimRecordOf(key);
      if (!zoneRecords.some((record) => record.type === 'TXT' && record.zona === zona && record.value === value)) {
        await this.publishKeys(domain, key.selector);
      }
    }
  }

  /** Starts a rotation: new keys published (not signing yet). One rotation at a time. */
  async startRotation(domain: MailDomain): Promise<void> {
    await this.ensureKeys(domain);
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    if (keys.some((key) => key.state !== 'active')) throw new ConflictError('mail.auth.error.rotating');
    for (const algorithm of this.algorithms()) await this.addKey(domain, algorithm, 'pending');
    await this.advance(domain);
  }

  /** Moves every unfinished rotation on (the server's timer); answers how many services moved. */
  async advanceAll(): Promise<number> {
    let moved = 0;
    for (const row of await mailAuthRepository.rotating(this.db)) {
      const domain = { serviceId: row.service_id, reference: row.reference, referencePunycode: row.reference_punycode };
      if (await this.advance(domain)) moved += 1;
    }
    return moved;
  }

  /**
   * RSA 2048, which every receiver checks. Ed25519 (RFC 8463) is known to the data model and the
   * key maker, but Debian 12's OpenDKIM (2.11.0 beta) signs every key of a message with the one
   * `SignatureAlgorithm` it is configured with, so a second Ed25519 signature fails the message:
   * it waits for a signer that picks the algorithm per key.
   */
  private algorithms(): DkimAlgorithm[] {
    return ['rsa'];
  }

  /** A domain's first keys: made, signing at once (there is nothing to switch from), published. */
  async ensureKeys(domain: MailDomain): Promise<void> {
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    const missing = this.algorithms().filter((algorithm) => !keys.some((key) => key.algorithm === algorithm));
    if (missing.length === 0) return;
    for (const algorithm of missing) await this.addKey(domain, algorithm, 'active');
    // Two first looks at once (two instances, two tabs) each make a key: whoever sees both keeps
    // the older and takes the newer back, record included, so one key per algorithm remains.
    const after = await mailAuthRepository.keys(this.db, domain.serviceId);
    for (const algorithm of missing) {
      const made = after.filter((key) => key.algorithm === algorithm && key.state === 'active');
      for (const extra of made.sort((a, b) => a.id - b.id).slice(1)) {
        await mailAuthRepository.deleteKey(this.db, domain.serviceId, extra.id);
        await this.publishKeys(domain, extra.selector);
      }
    }
    await this.giveSignerKeys(domain);
  }

  private async addKey(domain: MailDomain, algorithm: DkimAlgorithm, state: 'active' | 'pending') {
    const pair = await this.generate(algorithm);
    const now = this.now();
    const row = await mailAuthRepository.insertKey(this.db, {
      service_id: domain.serviceId,
      selector: newSelector(algorithm, now),
      algorithm,
      private_key: this.secrets.seal(pair.privateKey),
      public_key: pair.publicKey,
      state,
      created_at: now,
      activated_at: state === 'active' ? now : null,
      retire_at: null,
    });
    await this.publishKeys(domain, row.selector);
    return row;
  }

  /** The zone's record of one selector, as the keys of the database say (none once the key is gone). */
  private async publishKeys(domain: MailDomain, selector: string): Promise<void> {
    const key = (await mailAuthRepository.keys(this.db, domain.serviceId)).find((row) => row.selector === selector);
    const values = key ? [dkimRecordValue(key.algorithm as DkimAlgorithm, key.public_key)] : [];
    await this.zone.replaceOwnedTxt(domain, dkimRecordName(selector), isDkim, values);
  }

  /** The signer (on the mail node) gets the domain's active keys (dkim-signing.ts). */
  private giveSignerKeys(domain: MailDomain): Promise<void> {
    return this.signing.give({ serviceId: domain.serviceId, domain: domain.referencePunycode });
  }

  /**
   * One look at the rotation: a pending key that resolves starts signing (its predecessor
   * retiring); a retiring key past its time has its record withdrawn and is forgotten. Answers
   * whether anything moved.
   */
  async advance(domain: MailDomain): Promise<boolean> {
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    const now = this.now();
    let moved = false;
    const zoneRecords = await this.zone.recordsForBackup(domain.serviceId);
    for (const key of keys.filter((row) => row.state === 'pending')) {
      const record = dkimRecordOf(key);
      if ((await this.lookup.lookupState(domain, record.zona, record.value, zoneRecords)) !== 'found') continue;
      await this.db
        .transaction()
        .execute((trx) =>
          mailAuthRepository.activate(trx, domain.serviceId, key, now, now + this.settings.retireSeconds),
        );
      moved = true;
    }
    if (moved) await this.giveSignerKeys(domain);
    const after = await mailAuthRepository.keys(this.db, domain.serviceId);
    for (const key of after.filter((row) => row.state === 'retiring' && (row.retire_at ?? 0) <= now)) {
      await mailAuthRepository.deleteKey(this.db, domain.serviceId, key.id);
      await this.publishKeys(domain, key.selector);
      moved = true;
    }
    return moved;
  }
}

/** `rsa20261126a3f0`: the algorithm, the day it was made and a random suffix (one DNS label). */
function newSelector(algorithm: DkimAlgorithm, now: number): string {
  const day = new Date(now * 1000).toISOString().slice(0, 10).replaceAll('-', '');
  return `${algorithm === 'rsa' ? 'rsa' : 'ed'}${day}${randomBytes(2).toString('hex')}`;
}
