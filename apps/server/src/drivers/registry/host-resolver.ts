import { Resolver } from 'node:dns/promises';

/** Whether a name server's host name resolves to an address. */
export interface HostResolver {
  resolves(host: string): Promise<boolean>;
}

/**
 * Asks a real DNS server (the configured one, e.g. the provider's resolver; the system's when
 * none is set) for A and AAAA records. Used to check that name servers exist before they are sent
 * to the registry.
 */
export class DnsHostResolver implements HostResolver {
  private readonly resolver = new Resolver({ timeout: 2000, tries: 2 });

  constructor(servers: string[] = []) {
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  async resolves(host: string): Promise<boolean> {
    const [v4, v6] = await Promise.all([
      this.resolver.resolve4(host).catch(() => [] as string[]),
      this.resolver.resolve6(host).catch(() => [] as string[]),
    ]);
    return v4.length + v6.length > 0;
  }
}

/** Tries each resolver in turn (with the `database` DNS driver: the panel's own zones, then DNS). */
export class ChainedHostResolver implements HostResolver {
  constructor(private readonly resolvers: HostResolver[]) {}

  async resolves(host: string): Promise<boolean> {
    for (const resolver of this.resolvers) if (await resolver.resolves(host)) return true;
    return false;
  }
}
