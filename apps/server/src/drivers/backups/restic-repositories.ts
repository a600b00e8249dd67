import { ResticDriver, type ResticOptions } from './restic.driver.ts';

/** The placeholder that gives every service a repository of its own. */
export const SERVICE_PLACEHOLDER = '{service}';

/**
 * Where each service's snapshots go: one repository for the provider, or — when the location
 * names `{service}` (`/backups/svc-{service}`, `s3:…/panel247/{service}`) — one per service,
 * all opened with the same password file.
 */
export class ResticRepositories {
  private readonly drivers = new Map<string, ResticDriver>();

  constructor(private readonly options: ResticOptions) {}

  get perService(): boolean {
    return this.options.repository.includes(SERVICE_PLACEHOLDER);
  }

  private driver(repository: string): ResticDriver {
    let found = this.drivers.get(repository);
    if (!found) {
      found = new ResticDriver({ ...this.options, repository });
      this.drivers.set(repository, found);
    }
    return found;
  }

  /** The repository of one service. */
  of(serviceId: number): ResticDriver {
    return this.driver(this.options.repository.replaceAll(SERVICE_PLACEHOLDER, String(serviceId)));
  }

  /** Every repository these services' snapshots are in (the one shared, or one each). */
  ofAll(serviceIds: number[]): ResticDriver[] {
    return this.perService ? serviceIds.map((id) => this.of(id)) : [this.driver(this.options.repository)];
  }
}
