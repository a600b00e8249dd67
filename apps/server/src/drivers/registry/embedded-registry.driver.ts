import { randomInt } from 'node:crypto';
import type { RegistryDriver } from './registry.driver.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** The provider as registry of record: the panel database is the registry; nothing to call. */
export class EmbeddedRegistryDriver implements RegistryDriver {
  readonly kind = 'embedded' as const;

  async newAuthSecret(_domain: string, type: 'authcode' | 'transferkey'): Promise<string> {
    const length = type === 'authcode' ? 16 : 12;
    // A mix of classes as registries require, from an alphabet without look-alikes.
    let secret = '';
    for (let i = 0; i < length; i++) secret += ALPHABET[randomInt(ALPHABET.length)];
    return type === 'authcode' ? `${secret}#7` : secret;
  }

  async setNameservers(): Promise<void> {}
  async createHost(): Promise<void> {}
  async updateHost(): Promise<void> {}
  async deleteHost(): Promise<void> {}
  async addDs(): Promise<void> {}
  async removeDs(): Promise<void> {}
  async setStatus(): Promise<void> {}
  async updateContact(): Promise<void> {}
}
