import type { AppConfig } from '../../config.ts';
import type { DnsDriver } from './dns.driver.ts';
import { EmbeddedDnsDriver } from './embedded.driver.ts';
import { PowerDnsDriver } from './powerdns.driver.ts';

export function createDnsDriver(config: AppConfig): DnsDriver {
  if (config.dns.driver === 'powerdns') {
    return new PowerDnsDriver({
      apiUrl: config.dns.powerdnsApiUrl as string,
      apiKey: config.dns.powerdnsApiKey,
      serverId: config.dns.powerdnsServerId,
      timeoutMs: config.dns.powerdnsTimeoutSeconds * 1000,
      primary: config.dns.powerdnsZoneKind === 'primary',
    });
  }
  return new EmbeddedDnsDriver();
}
