import type { DnsDriver } from '../dns/dns.driver.ts';
import type { ChallengeResponder } from './acme.driver.ts';

/**
 * DNS-01 answers as the TXT record `_acme-challenge.<name>` (a wildcard's is its base name's), put
 * on the DNS server through the DNS driver for the length of the order and taken away after it.
 * It is the server's alone, never a record of the panel's zone: the customer's list and history
 * stay as they were, and a `dns sync` during an order would only take it away early.
 */
export class DnsChallengeRecords implements ChallengeResponder {
  readonly type = 'dns-01' as const;
  /** The values of each name's TXT: two authorizations of one name (x and *.x) need both at once. */
  private readonly values = new Map<string, string[]>();

  constructor(
    private readonly driver: DnsDriver,
    private readonly zone: string,
  ) {}

  private owner(name: string): string {
    return `_acme-challenge.${name.replace(/^\*\./, '')}.`;
  }

  private send(owner: string): Promise<void> {
    const contents = (this.values.get(owner) ?? []).map((value) => `"${value}"`);
    return this.driver.replaceRRsets(this.zone, [{ name: owner, type: 'TXT', ttl: 60, contents }]);
  }

  async present(name: string, _token: string, value: string): Promise<void> {
    const owner = this.owner(name);
    this.values.set(owner, [...(this.values.get(owner) ?? []), value]);
    await this.send(owner);
  }

  async remove(name: string, _token: string, value: string): Promise<void> {
    const owner = this.owner(name);
    this.values.set(
      owner,
      (this.values.get(owner) ?? []).filter((kept) => kept !== value),
    );
    await this.send(owner);
  }
}
