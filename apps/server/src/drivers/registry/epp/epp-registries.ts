import { readFile } from 'node:fs/promises';
import { EppPool, type EppTransaction } from './epp-pool.ts';
import type { EppRegistryHandle } from './epp-registry.driver.ts';

/** A registry as configured (`panel registry add`), its password open. */
export interface EppRegistrySettings {
  name: string;
  tlds: string[];
  host: string;
  port: number;
  certFile: string;
  keyFile: string;
  /** '' : the system's CAs. */
  caFile: string;
  clientId: string;
  password: string;
  hostObjects: boolean;
  sessions: number;
  ratePerSecond: number;
}

/** Each registry's session pool, its client certificate and key read from their files. */
export async function eppRegistryHandles(
  registries: EppRegistrySettings[],
  options: { keepAliveMs: number; timeoutMs?: number; onTransaction?: (transaction: EppTransaction) => void },
): Promise<EppRegistryHandle[]> {
  return Promise.all(
    registries.map(async (registry) => {
      const [cert, key, ca] = await Promise.all([
        readFile(registry.certFile, 'utf8'),
        readFile(registry.keyFile, 'utf8'),
        registry.caFile ? readFile(registry.caFile, 'utf8') : Promise.resolve(undefined),
      ]);
      const pool = new EppPool(
        {
          name: registry.name,
          host: registry.host,
          port: registry.port,
          cert,
          key,
          ...(ca ? { ca } : {}),
          clientId: registry.clientId,
          password: registry.password,
          sessions: registry.sessions,
          ratePerSecond: registry.ratePerSecond,
          keepAliveMs: options.keepAliveMs,
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        },
        options.onTransaction,
      );
      return { name: registry.name, tlds: registry.tlds, pool, hostObjects: registry.hostObjects };
    }),
  );
}
