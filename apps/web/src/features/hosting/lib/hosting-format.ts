import type { HostingService } from '@panel247/contract/hosting';

/** The PHP choices: the provider's default (named with its version), then every version the server runs. */
export function phpChoices(service: HostingService, defaultLabel: string): { value: string; label: string }[] {
  const versions =
    service.phpVersions.includes(service.phpversion) || service.phpversion === 'default'
      ? service.phpVersions
      : [...service.phpVersions, service.phpversion];
  return [
    { value: 'default', label: defaultLabel },
    ...versions.map((version) => ({ value: version, label: `PHP ${version}` })),
  ];
}

/** The database server a service's users connect to: `bbdd.` before the domain, like the mail connection data. */
export function databaseHost(domain: string): string {
  return `bbdd.${domain}`;
}
