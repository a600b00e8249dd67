import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { eppCommands, readDomainInfo } from '../../src/drivers/registry/epp/epp-commands.ts';
import { EppConnectionLost } from '../../src/drivers/registry/epp/epp-connection.ts';
import { EppPool, type EppTransaction } from '../../src/drivers/registry/epp/epp-pool.ts';
import { EppRegistryDriver, type EppRegistryHandle } from '../../src/drivers/registry/epp/epp-registry.driver.ts';
import { expectSuccess, RegistryRefusedError } from '../../src/drivers/registry/epp/epp-result.ts';
import { type EppRegistryServer, startEppRegistry } from '../support/epp-registry/epp-registry-server.ts';
import { type RegistryCertificates, registryCertificates } from '../support/epp-registry/registry-certificates.ts';

const run = promisify(execFile);
const REGISTRAR = { id: 'panel247', password: 'secret-pw-1' };
/** The registrar the CLI logs in as (its password changes in the test). */
const CLI_REGISTRAR = { id: 'panel247-cli', password: 'cli-secret-1' };

/**
 * The panel's EPP client against the test registry (TLS with client certificates, real state,
 * every frame checked against the RFCs' schemas), and Debian's Net::EPP driving the same
 * registry, so that neither side speaks only the other's dialect.
 */
describe('EPP: the panel’s client and an independent one against the test registry', () => {
  let certs: RegistryCertificates;
  let registry: EppRegistryServer;
  let pool: EppPool;
  const transactions: EppTransaction[] = [];

  const optionsFor = (overrides: Partial<ConstructorParameters<typeof EppPool>[0]> = {}) => ({
    name: 'test',
    host: '127.0.0.1',
    port: registry.port,
    cert: certs.client.cert,
    key: certs.client.key,
    ca: certs.ca,
    clientId: REGISTRAR.id,
    password: REGISTRAR.password,
    sessions: 2,
    ratePerSecond: 50,
    keepAliveMs: 60_000,
    ...overrides,
  });
  const poolFor = (overrides: Partial<ConstructorParameters<typeof EppPool>[0]> = {}) =>
    new EppPool(optionsFor(overrides), (transaction) => transactions.push(transaction));

  beforeAll(async () => {
    requireBinary('xmllint', 'libxml2-utils');
    requireBinary('openssl', 'openssl');
    certs = await registryCertificates();
    registry = await startEppRegistry({
      cert: certs.server.cert,
      key: certs.server.key,
      ca: certs.ca,
      registrars: [REGISTRAR, CLI_REGISTRAR, { id: 'other-registrar', password: 'other-pw-22' }],
    });
    registry.state.addDomain('tienda.es', REGISTRAR.id, { nameservers: ['ns1.hosting.example'] });
    registry.state.addDomain('perl.es', REGISTRAR.id);
    registry.state.addDomain('ajeno.es', 'other-registrar');
    pool = poolFor();
  });
  afterAll(async () => {
    await pool?.close();
    await registry?.close();
    await certs?.remove();
  });

  /** The driver over one registry's pool (no reading, no refresh: the pool is the test's). */
  const driverOver = (handle: EppRegistryHandle) =>
    new EppRegistryDriver({
      settings: async () => [],
      handles: async () => [handle],
      refreshMs: 3_600_000,
      cacheSeconds: 0,
      now: () => Math.floor(Date.now() / 1000),
    });

  const send = (name: string, command: { verb: string; extension?: string }) =>
    pool.command(name, command.verb, command.extension);

  it('logs in over TLS with the registrar’s certificate and reads a domain; each command has its own ids', async () => {
    const info = readDomainInfo(expectSuccess(await send('domain:info', eppCommands.domainInfo('tienda.es'))));
    expect(info).toMatchObject({ name: 'tienda.es', statuses: ['ok'], authInfo: 'Auth-Code-0001' });
    expect(info.hosts.map((host) => host.name)).toEqual(['ns1.hosting.example']);
    expect(pool.greeting?.extensions).toContain('urn:ietf:params:xml:ns:secDNS-1.1');
    const ids = transactions.map((t) => t.clTRID);
    expect(new Set(ids).size).toBe(ids.length);
    expect(transactions.every((t) => t.svTRID.startsWith('SV-'))).toBe(true);
    // another registrar's domain: no auth code
    const foreign = readDomainInfo(expectSuccess(await send('domain:info', eppCommands.domainInfo('ajeno.es'))));
    expect(foreign.authInfo).toBe('');
  });

  it('refuses a wrong password and a certificate from another CA', async () => {
    const wrong = poolFor({ password: 'not-the-pw' });
    await expect(wrong.command('domain:info', eppCommands.domainInfo('tienda.es').verb)).rejects.toMatchObject({
      code: 2200,
    });
    await wrong.close();
    const stranger = poolFor({ cert: certs.stranger.cert, key: certs.stranger.key });
    await expect(stranger.command('domain:info', eppCommands.domainInfo('tienda.es').verb)).rejects.toBeInstanceOf(
      EppConnectionLost,
    );
    await stranger.close();
  });

  it('creates glue, names it as a name server, and is refused deleting a host in use, with the reason', async () => {
    const missingGlue = await send('host:create', eppCommands.hostCreate({ name: 'ns1.tienda.es', addresses: [] }));
    expect(missingGlue.code).toBe(2003);
    expectSuccess(
      await send(
        'host:create',
        eppCommands.hostCreate({ name: 'ns1.tienda.es', addresses: [{ ip: 'v4', address: '192.0.2.1' }] }),
      ),
    );
    expectSuccess(
      await send(
        'domain:update',
        eppCommands.domainUpdate('tienda.es', { addHosts: [{ name: 'ns1.tienda.es', addresses: [] }] }, true),
      ),
    );
    const inUse = await send('host:delete', eppCommands.hostDelete('ns1.tienda.es'));
    expect(inUse.code).toBe(2305);
    const refusal = new RegistryRefusedError(inUse.code, inUse);
    expect(refusal.messageKey).toBe('registry.epp.2305');
    expect(refusal.detail).toContain('is a name server of a domain');
    expect(registry.state.hosts.has('ns1.tienda.es')).toBe(true);
  });

  it('adds and removes DS data, and the update lock refuses other changes until it is taken away', async () => {
    const ds = {
      keytag: 12345,
      algorithm: 13,
      digestType: 2,
      digest: '49FD46E6C4B45C55D4AC49FD46E6C4B45C55D4AC49FD46E6C4B45C55D4AC1234',
    };
    expectSuccess(await send('domain:update', eppCommands.domainUpdate('tienda.es', { addDs: [ds] }, true)));
    expect(readDomainInfo(await send('domain:info', eppCommands.domainInfo('tienda.es'))).ds).toEqual([ds]);
    expectSuccess(
      await send(
        'domain:update',
        eppCommands.domainUpdate('tienda.es', { addStatus: ['clientUpdateProhibited'] }, true),
      ),
    );
    const locked = await send('domain:update', eppCommands.domainUpdate('tienda.es', { removeDs: [ds] }, true));
    expect(locked.code).toBe(2304);
    expectSuccess(
      await send(
        'domain:update',
        eppCommands.domainUpdate('tienda.es', { removeStatus: ['clientUpdateProhibited'] }, true),
      ),
    );
    expectSuccess(await send('domain:update', eppCommands.domainUpdate('tienda.es', { removeDs: [ds] }, true)));
    expect(registry.state.domains.get('tienda.es')?.ds).toEqual([]);
  });

  it('reads the poll queue and acknowledges a message', async () => {
    const message = registry.state.enqueue(REGISTRAR.id, 'Transfer requested for tienda.es');
    const request = await send('poll', eppCommands.pollRequest());
    expect(request.code).toBe(1301);
    expect(request.queue).toMatchObject({ count: 1, id: message.id, message: 'Transfer requested for tienda.es' });
    expectSuccess(await send('poll', eppCommands.pollAck(message.id)));
    expect((await send('poll', eppCommands.pollRequest())).code).toBe(1300);
  });

  it('a connection cut after the registry executed a command says the command was sent; the next command opens a new session', async () => {
    registry.cutAfter('domain:update');
    const cut = await send(
      'domain:update',
      eppCommands.domainUpdate('tienda.es', { authInfo: 'New-Code-0002' }, true),
    ).catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(EppConnectionLost);
    expect((cut as EppConnectionLost).sent).toBe(true);
    // it was executed: an info finds out before anything is sent again
    const info = readDomainInfo(await send('domain:info', eppCommands.domainInfo('tienda.es')));
    expect(info.authInfo).toBe('New-Code-0002');
  });

  it('Net::EPP (Debian’s libnet-epp-perl) drives the same registry through the same scenario', async () => {
    const script = path.join(import.meta.dirname, '../support/epp-registry/net-epp-scenario.pl');
    const { stdout } = await run('perl', [
      script,
      '127.0.0.1',
      String(registry.port),
      certs.files.clientCert,
      certs.files.clientKey,
      certs.files.ca,
      REGISTRAR.id,
      REGISTRAR.password,
    ]);
    expect(stdout).toContain('logout');
    const steps = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((line) => [line.split(' ')[0], line.split(' ').slice(1)]),
    );
    expect(steps.login?.[0]).toBe('1000');
    expect(steps.domain_info).toEqual(['1000', '', 'registrant@example.es']);
    expect(steps.create_host?.[0]).toBe('1000');
    expect(steps.create_host_without_glue?.[0]).toBe('2003');
    expect(steps.update_domain?.[0]).toBe('1000');
    expect(steps.delete_linked_host?.[0]).toBe('2305');
    expect(steps.domain_info_after).toEqual(['1000', 'ns1.perl.es']);
    expect(steps.poll?.[0]).toBe('1300');
    expect(steps.logout?.[0]).toBe('1500');
  });

  it('the registry driver: name servers (host objects made, glue from the panel), locks, privacy, DS, contacts', async () => {
    registry.state.addDomain('driver.es', REGISTRAR.id, { nameservers: ['ns1.hosting.example'] });
    const driver = driverOver({ name: 'test', tlds: ['es'], pool, hostObjects: true });
    const glue = [{ name: 'ns1.driver.es', ipv4: '192.0.2.10', ipv6: '' }];
    expect(await driver.readDomain('driver.es')).toMatchObject({
      nameservers: ['ns1.hosting.example'],
      blocked: false,
      transferBlock: false,
      whoisPrivacy: false,
    });
    expect(await driver.readDomain('nadie.es')).toBeUndefined();

    await driver.setNameservers('driver.es', ['ns1.driver.es', 'ns2.elsewhere.example'], glue);
    expect(registry.state.domains.get('driver.es')?.nameservers.map((h) => h.name)).toEqual([
      'ns1.driver.es',
      'ns2.elsewhere.example',
    ]);
    expect(registry.state.hosts.get('ns1.driver.es')?.addresses).toEqual([{ ip: 'v4', address: '192.0.2.10' }]);
    await driver.updateHost('driver.es', 'ns1.driver.es', '192.0.2.11', '2001:db8::11');
    expect(registry.state.hosts.get('ns1.driver.es')?.addresses.map((a) => a.address)).toEqual([
      '192.0.2.11',
      '2001:db8::11',
    ]);
    await expect(driver.deleteHost('driver.es', 'ns1.driver.es')).rejects.toMatchObject({ code: 2305 });

    await driver.setStatus('driver.es', { blocked: true, transferBlock: true, whoisPrivacy: true });
    expect(await driver.readDomain('driver.es')).toMatchObject({
      blocked: true,
      transferBlock: true,
      whoisPrivacy: true,
    });
    // locked: a change is refused by the registry, with its code
    await expect(driver.setNameservers('driver.es', ['ns1.driver.es'], glue)).rejects.toMatchObject({ code: 2304 });
    await driver.setStatus('driver.es', { blocked: false, transferBlock: false, whoisPrivacy: false });
    expect(await driver.readDomain('driver.es')).toMatchObject({
      blocked: false,
      transferBlock: false,
      whoisPrivacy: false,
    });

    const ds = { keytag: 4242, algorithm: 13, digestType: 2, digest: 'AB'.repeat(32) };
    await driver.addDs('driver.es', [ds]);
    await driver.removeDs('driver.es', [ds]);
    expect(registry.state.domains.get('driver.es')?.ds).toEqual([]);

    await driver.updateContact('driver.es', ['registrant', 'admin'], {
      isOrg: true,
      orgName: 'Tienda SL',
      firstName: '',
      lastName: '',
      identNumber: 'B12345678',
      email: 'legal@tienda.es',
      phone: '+34.911000000',
      address: 'Gran Via 1',
      postalCode: '28013',
      city: 'Madrid',
      state: '',
      country: 'es',
    });
    const domain = registry.state.domains.get('driver.es');
    expect(registry.state.contacts.get(domain?.registrant ?? '')?.email).toBe('legal@tienda.es');
    expect(domain?.contacts).toEqual([{ type: 'admin', id: domain?.registrant }]);
  });

  it('a change cut after the registry applied it is read back, not sent twice', async () => {
    registry.state.addDomain('cortado.es', REGISTRAR.id, { nameservers: ['ns1.hosting.example'] });
    const driver = driverOver({ name: 'test', tlds: ['es'], pool, hostObjects: true });
    registry.cutAfter('domain:update');
    const before = registry.commands.filter((c) => c.command === 'domain:update').length;
    await driver.setNameservers('cortado.es', ['ns1.hosting.example', 'ns1.tienda.es'], []);
    expect(registry.commands.filter((c) => c.command === 'domain:update').length - before).toBe(1);
    expect(registry.state.domains.get('cortado.es')?.nameservers.map((h) => h.name)).toEqual([
      'ns1.hosting.example',
      'ns1.tienda.es',
    ]);
  });

  it('a registry of host attributes takes the glue with the name server', async () => {
    const attributes = await startEppRegistry({
      cert: certs.server.cert,
      key: certs.server.key,
      ca: certs.ca,
      registrars: [{ ...REGISTRAR }],
      rules: { hostObjects: false },
    });
    attributes.state.addDomain('attr.cat', REGISTRAR.id);
    const attrPool = poolFor({ port: attributes.port });
    const driver = driverOver({ name: 'cat', tlds: ['cat'], pool: attrPool, hostObjects: false });
    await driver.setNameservers(
      'attr.cat',
      ['ns1.attr.cat', 'ns.elsewhere.example'],
      [{ name: 'ns1.attr.cat', ipv4: '192.0.2.20', ipv6: '' }],
    );
    expect(attributes.state.domains.get('attr.cat')?.nameservers).toEqual([
      { name: 'ns1.attr.cat', addresses: [{ ip: 'v4', address: '192.0.2.20' }] },
      { name: 'ns.elsewhere.example', addresses: [] },
    ]);
    await driver.updateHost('attr.cat', 'ns1.attr.cat', '192.0.2.21', '');
    expect(attributes.state.domains.get('attr.cat')?.nameservers[1]).toEqual({
      name: 'ns1.attr.cat',
      addresses: [{ ip: 'v4', address: '192.0.2.21' }],
    });
    await expect(driver.deleteHost('attr.cat', 'ns1.attr.cat')).rejects.toMatchObject({ code: 2305 });
    await attrPool.close();
    expect(attributes.problems).toEqual([]);
    await attributes.close();
  });

  it('the CLI adds a registry (its password kept sealed), checks it, and changes the password at the registry', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-epp-cli-'));
    const cli = async (args: string[], stdin = '') => {
      let stdout = '';
      let stderr = '';
      const code = await runCli([...args, '--json'], {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        readStdin: async () => stdin,
        env: { PANEL_DATA_DIR: dataDir, PANEL_REGISTRY_DRIVER: 'epp' },
      });
      return { code, stdout, stderr };
    };
    const added = await cli(
      [
        'registry',
        'add',
        'nic-es',
        '--tld',
        'es,com.es',
        '--host',
        'localhost',
        '--port',
        String(registry.port),
        '--cert',
        certs.files.clientCert,
        '--key',
        certs.files.clientKey,
        '--ca',
        certs.files.ca,
        '--client-id',
        CLI_REGISTRAR.id,
        '--password-stdin',
      ],
      `${CLI_REGISTRAR.password}\n`,
    );
    expect(added.stderr).toBe('');
    const taken = await cli(
      [
        'registry',
        'add',
        'other',
        '--tld',
        'com.es',
        '--host',
        'localhost',
        '--cert',
        'c',
        '--key',
        'k',
        '--client-id',
        'abc',
        '--password-stdin',
      ],
      'abcdef\n',
    );
    expect(taken.stderr).toContain('com.es');
    const checked = await cli(['registry', 'check', 'nic-es']);
    expect(checked.stderr).toBe('');
    expect(JSON.parse(checked.stdout).extensions).toContain('urn:ietf:params:xml:ns:secDNS-1.1');
    const listed = await cli(['registry', 'list']);
    expect(listed.stdout).not.toContain(CLI_REGISTRAR.password);
    expect(JSON.parse(listed.stdout).registries[0]).toMatchObject({
      name: 'nic-es',
      tlds: ['es', 'com.es'],
      hostObjects: true,
    });
    const changed = await cli(['registry', 'password', 'nic-es', '--new-password-stdin'], 'new-pw-7777\n');
    expect(changed.stderr).toBe('');
    expect(CLI_REGISTRAR.password).toBe('new-pw-7777');
    // the sealed password is the new one: the next session logs in with it
    expect((await cli(['registry', 'check', 'nic-es'])).code).toBe(0);
    // the poll queue read at once: the message kept, then acknowledged
    registry.state.enqueue(CLI_REGISTRAR.id, 'Registry maintenance on Sunday');
    const polled = await cli(['registry', 'poll']);
    expect(polled.stderr).toBe('');
    expect(JSON.parse(polled.stdout)).toMatchObject({
      taken: 1,
      messages: [{ registry: 'nic-es', text: 'Registry maintenance on Sunday', domain: '' }],
    });
    expect(registry.state.queues.get(CLI_REGISTRAR.id)).toEqual([]);
    // a sync of a panel without domains checks none
    const synced = await cli(['registry', 'sync', '--dry-run']);
    expect(JSON.parse(synced.stdout)).toMatchObject({ dryRun: true, checked: 0, outcomes: [] });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every frame either side sent passed the RFCs’ schemas', () => {
    expect(registry.problems).toEqual([]);
    expect(registry.commands.length).toBeGreaterThan(20);
  });
});
