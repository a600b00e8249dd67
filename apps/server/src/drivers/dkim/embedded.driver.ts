import type { DkimDriver, SigningKey } from './dkim.driver.ts';

/**
 * No signer to tell: the keys live in the panel database only (for a panel whose mail leaves
 * through a system it does not drive). It remembers what it was given, so tests can ask.
 */
export class EmbeddedDkimDriver implements DkimDriver {
  readonly kind = 'embedded' as const;
  readonly signing = new Map<string, SigningKey[]>();

  async setSigningKeys(domain: string, keys: SigningKey[]): Promise<void> {
    if (keys.length === 0) this.signing.delete(domain);
    else this.signing.set(domain, keys);
  }

  async sync(domains: Map<string, SigningKey[]>, options: { dryRun: boolean }): Promise<string[]> {
    const selectors = (keys: SigningKey[] | undefined) => (keys ?? []).map((key) => key.selector).join(',');
    const names = new Set([...domains.keys(), ...this.signing.keys()]);
    const drift = [...names].filter((name) => selectors(domains.get(name)) !== selectors(this.signing.get(name)));
    if (!options.dryRun) {
      this.signing.clear();
      for (const [domain, keys] of domains) if (keys.length > 0) this.signing.set(domain, keys);
    }
    return drift.sort();
  }
}
