import { Resolver } from 'node:dns/promises';

/** What a name's TXT records are through the configured resolvers: `undefined` when no answer came. */
export interface TxtLookup {
  txt(name: string): Promise<string[] | undefined>;
}

/**
 * Asks the configured resolvers (the system's when none is set) for TXT records, each record's
 * strings joined as RFC 7208 and RFC 6376 read them. No such name or record is an empty answer;
 * a timeout or a refusal is no answer.
 */
export class DnsTxtLookup implements TxtLookup {
  private readonly resolver = new Resolver({ timeout: 1500, tries: 2 });

  constructor(servers: string[] = []) {
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  async txt(name: string): Promise<string[] | undefined> {
    try {
      return (await this.resolver.resolveTxt(name)).map((strings) => strings.join(''));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOTFOUND' || code === 'ENODATA' ? [] : undefined;
    }
  }
}
