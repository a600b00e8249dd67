import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { nowSeconds } from '../../src/db/database.ts';
import { correctedValue } from '../../src/dns-placeholders.ts';
import { createDnsDriver } from '../../src/drivers/dns/create-dns-driver.ts';
import { createDnsService } from '../../src/modules/dns/dns.service.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/**
 * A zone made while the provider's DNS settings still held their documentation defaults, then
 * corrected once they hold the provider's own (`panel dns placeholders --fix`): what PowerDNS
 * serves afterwards, asked with dig.
 */
describe.each(DATABASE_KINDS)('placeholder records corrected on a real PowerDNS (panel on %s)', (kind) => {
  let pdns: PowerDns;
  let t: TestApp;
  let account: BuiltAccount;
  const zone = `placeholders-${kind}.test`;

  beforeAll(async () => {
    pdns = await startPowerDns();
    // the built-in defaults: ns1/ns2.panel247.test, 192.0.2.10, 2001:db8::10, spf.panel247.test…
    t = await buildTestApp(kind, {
      config: { 'dns.driver': 'powerdns', 'dns.powerdnsApiUrl': pdns.apiUrl, 'dns.powerdnsApiKey': pdns.apiKey },
    });
    account = await buildAccount(t.database.db, { domainName: zone });
  });
  afterAll(async () => {
    await t?.close();
    await pdns?.stop();
  });

  it('serves the provider’s values in place of the placeholders, and nothing of them', async () => {
    const cookie = await t.login(account.domainName, account.username, account.password);
    const serviceId = account.resources[zone] as number;
    await t.call('GET', `service/${serviceId}/dns/list/`, {}, { cookie });
    expect(await pdns.dig(zone, 'AAAA')).toEqual(['2001:db8::10']);
    expect(await pdns.dig(zone, 'TXT')).toEqual(['"v=spf1 mx a include:spf.panel247.test ~all"']);

    const settings = {
      ...t.config,
      dns: {
        ...t.config.dns,
        nameservers: ['ns1.hosting-provider.net', 'ns2.hosting-provider.net'],
        webIpv4: '93.184.215.10',
        webIpv6: '',
        mailIpv4: '93.184.215.25',
        spfInclude: '_spf.hosting-provider.net',
        dmarcReport: 'dmarc@hosting-provider.net',
      },
    };
    // As `panel dns placeholders --fix` does: its changes go to the work log, whose jobs the
    // running panel (the test app) publishes.
    const dns = createDnsService(
      t.database.db,
      settings,
      createDnsDriver(settings),
      () => nowSeconds(),
      t.services.jobs,
    );
    const fix = (dryRun: boolean) => dns.correctRecords((record) => correctedValue(record, settings), { dryRun });
    expect(await fix(true)).toHaveLength(7);
    // a dry run changes nothing
    expect(await pdns.dig(zone, 'A')).toEqual(['192.0.2.10']);

    expect(await fix(false)).toHaveLength(7);
    expect(await pdns.dig(zone, 'A')).toEqual(['93.184.215.10']);
    expect(await pdns.dig(zone, 'AAAA')).toEqual([]);
    expect(await pdns.dig(`mail.${zone}`, 'A')).toEqual(['93.184.215.25']);
    expect((await pdns.dig(zone, 'NS')).sort()).toEqual(['ns1.hosting-provider.net.', 'ns2.hosting-provider.net.']);
    expect(await pdns.dig(zone, 'TXT')).toEqual(['"v=spf1 mx a include:_spf.hosting-provider.net ~all"']);
    expect(await pdns.dig(`_dmarc.${zone}`, 'TXT')).toEqual([
      '"v=DMARC1; p=none; rua=mailto:dmarc@hosting-provider.net"',
    ]);
    // a second run finds nothing left, and PowerDNS serves what the panel holds (no drift)
    expect(await fix(false)).toEqual([]);
    const sync = await dns.sync(undefined, { dryRun: true });
    expect(sync.find((report) => report.zone === zone)).toMatchObject({ missing: [], extra: [], changed: [] });
  });
});
