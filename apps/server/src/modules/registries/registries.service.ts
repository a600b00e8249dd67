import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { registriesRepository } from './registries.repository.ts';

/** A registry as the provider configures it (`panel registry add`). */
export interface RegistryConfig {
  name: string;
  tlds: string[];
  host: string;
  port: number;
  certFile: string;
  keyFile: string;
  /** '' : the system's CAs. */
  caFile: string;
  clientId: string;
  hostObjects: boolean;
  sessions: number;
  ratePerSecond: number;
}

/** The same, with its login password open: only the EPP driver gets it. */
export interface RegistryLogin extends RegistryConfig {
  password: string;
}

type Row = NonNullable<Awaited<ReturnType<typeof registriesRepository.byName>>>;

function configOf(row: Row): RegistryConfig & { extensions: string[] } {
  return {
    name: row.name,
    tlds: row.tlds.split(',').filter(Boolean),
    host: row.host,
    port: row.port,
    certFile: row.cert_file,
    keyFile: row.key_file,
    caFile: row.ca_file,
    clientId: row.client_id,
    hostObjects: row.host_objects === 1,
    sessions: row.sessions,
    ratePerSecond: row.rate_per_second,
    extensions: row.extensions.split(',').filter(Boolean),
  };
}

/**
 * The registries the EPP driver speaks to, by TLD. The login password is sealed with the panel's
 * key (`registry-password`): it is never listed, and only the driver opens it.
 */
export class RegistriesService {
  constructor(
    private readonly db: Db,
    private readonly passwords: SecretBox,
    private readonly now: () => number,
  ) {}

  async list(): Promise<(RegistryConfig & { extensions: string[] })[]> {
    return (await registriesRepository.list(this.db)).map(configOf);
  }

  /** Every registry with its password, for the driver. */
  async logins(): Promise<RegistryLogin[]> {
    return (await registriesRepository.list(this.db)).map((row) => ({
      ...configOf(row),
      password: this.passwords.open(row.password_sealed),
    }));
  }

  async add(config: RegistryConfig, password: string): Promise<void> {
    const taken = new Set((await this.list()).flatMap((registry) => registry.tlds));
    const clash = config.tlds.find((tld) => taken.has(tld));
    if (clash) throw new ConflictError('registry.error.tld_taken', { tld: clash });
    const added = await registriesRepository.insert(this.db, {
      name: config.name,
      tlds: config.tlds.join(','),
      host: config.host,
      port: config.port,
      cert_file: config.certFile,
      key_file: config.keyFile,
      ca_file: config.caFile,
      client_id: config.clientId,
      password_sealed: this.passwords.seal(password),
      host_objects: config.hostObjects ? 1 : 0,
      sessions: config.sessions,
      rate_per_second: config.ratePerSecond,
      created_at: this.now(),
    });
    if (!added) throw new ConflictError('registry.error.name_taken');
  }

  /** The password the registry now holds (after a login with `newPW`), sealed again. */
  async setPassword(name: string, password: string): Promise<void> {
    if (!(await registriesRepository.update(this.db, name, { password_sealed: this.passwords.seal(password) })))
      throw new NotFoundError();
  }

  /** What the registry's last greeting announced. */
  async setExtensions(name: string, extensions: string[]): Promise<void> {
    await registriesRepository.update(this.db, name, { extensions: extensions.join(',') });
  }

  async remove(name: string): Promise<void> {
    if (!(await registriesRepository.remove(this.db, name))) throw new NotFoundError();
  }
}
