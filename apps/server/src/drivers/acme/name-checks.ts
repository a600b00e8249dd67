import { Resolver } from 'node:dns/promises';
import type { ChallengeType } from './acme.driver.ts';

export interface NameCheckSettings {
  /** ip or ip:port; empty: the system's resolvers. */
  resolvers: string[];
  /** The provider's web servers: for HTTP-01 every address of a name must be one of them; empty: not checked. */
  webAddresses: string[];
  /** What a CAA `issue` (or `issuewild`) record must name for the CA to be allowed. */
  caaIdentities: string[];
}

/** Why a name would make the order fail, found before anything is asked of the CA. */
export interface NameProblem {
  name: string;
  problem: 'unresolved' | 'elsewhere' | 'caa';
  /** The addresses found, or the CA names CAA allows. */
  found: string[];
}

/** Answers that only mean "no such records" (the name, or its records of that type, do not exist). */
const NOTHING = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'NXDOMAIN']);

async function orNothing<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (error) {
    if (NOTHING.has((error as { code?: string }).code ?? '')) return [];
    throw error;
  }
}

/**
 * The checks before an order, through the configured resolvers (the ones the CA will see, not
 * the panel's own database): a name that does not resolve, one that leads elsewhere than the
 * provider's web servers (a CDN, another host: HTTP-01 would fail there), and a CAA record set
 * that does not allow the CA (RFC 8659: the closest set up the tree decides).
 */
export class NameChecks {
  private readonly resolver = new Resolver({ timeout: 3000, tries: 2 });

  constructor(private readonly settings: NameCheckSettings) {
    if (settings.resolvers.length > 0) this.resolver.setServers(settings.resolvers);
  }

  async check(names: string[], challenge: ChallengeType): Promise<NameProblem[]> {
    const problems: NameProblem[] = [];
    for (const name of names) {
      const wildcard = name.startsWith('*.');
      const base = wildcard ? name.slice(2) : name;
      if (challenge === 'http-01') {
        const addresses = [
          ...(await orNothing(this.resolver.resolve4(base))),
          ...(await orNothing(this.resolver.resolve6(base))),
        ];
        if (addresses.length === 0) problems.push({ name, problem: 'unresolved', found: [] });
        else if (
          this.settings.webAddresses.length > 0 &&
          addresses.some((address) => !this.settings.webAddresses.includes(address))
        ) {
          problems.push({ name, problem: 'elsewhere', found: addresses });
        }
      }
      const allowed = await this.caaAllows(base, wildcard);
      if (allowed !== true) problems.push({ name, problem: 'caa', found: allowed });
    }
    return problems;
  }

  /** True when CAA lets the CA issue for `name`; otherwise the CAs its records allow. */
  private async caaAllows(name: string, wildcard: boolean): Promise<true | string[]> {
    const labels = name.split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const records = await orNothing(this.resolver.resolveCaa(labels.slice(i).join('.')));
      if (records.length === 0) continue;
      const issuewild = records.filter((record) => record.issuewild !== undefined);
      const relevant =
        wildcard && issuewild.length > 0 ? issuewild : records.filter((record) => record.issue !== undefined);
      // a set with no issue property (only iodef, say) restricts nothing
      if (relevant.length === 0) return true;
      const issuers = relevant.map((record) => (record.issue ?? record.issuewild ?? '').split(';')[0]?.trim() ?? '');
      return issuers.some((issuer) => this.settings.caaIdentities.includes(issuer)) ? true : issuers.filter(Boolean);
    }
    return true;
  }
}
