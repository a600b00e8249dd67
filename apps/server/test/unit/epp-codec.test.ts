import { describe, expect, it } from 'vitest';
import { eppCommands, readPollMessage } from '../../src/drivers/registry/epp/epp-commands.ts';
import { encodeFrame, FrameReader } from '../../src/drivers/registry/epp/epp-frame.ts';
import { RegistryRefusedError } from '../../src/drivers/registry/epp/epp-result.ts';
import { parseEpp, readResponse, xmlText } from '../../src/drivers/registry/epp/epp-xml.ts';
import { translate } from '../../src/i18n/messages.ts';
import { driftOf } from '../../src/modules/domain/registry-drift.ts';

describe('EPP framing and XML', () => {
  it('frames with a 32-bit total length and reads frames split and joined across chunks', () => {
    const one = encodeFrame('<epp>á</epp>');
    expect(one.readUInt32BE(0)).toBe(one.length);
    const both = Buffer.concat([one, encodeFrame('<epp/>')]);
    const reader = new FrameReader();
    expect(reader.push(both.subarray(0, 3))).toEqual([]);
    expect(reader.push(both.subarray(3, 10))).toEqual([]);
    expect(reader.push(both.subarray(10))).toEqual(['<epp>á</epp>', '<epp/>']);
    expect(() => new FrameReader().push(Buffer.from([0, 0, 0, 2]))).toThrow(/frame of 2 bytes/);
  });

  it('escapes every value it writes: a name cannot become markup', () => {
    expect(xmlText('a<b>&"\'')).toBe('a&#60;b&#62;&#38;&#34;&#39;');
    expect(eppCommands.hostDelete('x</host:name><evil/>').verb).not.toContain('<evil/>');
  });

  it('reads a response whatever prefixes the registry chose, and refuses a DOCTYPE', () => {
    const response = readResponse(
      parseEpp(
        '<e:epp xmlns:e="urn:ietf:params:xml:ns:epp-1.0"><e:response><e:result code="2305"><e:msg>Object association prohibits operation</e:msg>' +
          '<e:extValue><e:value><x/></e:value><e:reason>in use</e:reason></e:extValue></e:result><e:trID><e:clTRID>C-1</e:clTRID><e:svTRID>S-1</e:svTRID></e:trID></e:response></e:epp>',
      ),
    );
    expect(response).toMatchObject({ code: 2305, reason: 'in use', clTRID: 'C-1', svTRID: 'S-1' });
    expect(() => parseEpp('<!DOCTYPE epp [<!ENTITY x "y">]><epp/>')).toThrow(/DOCTYPE/);
  });

  it('words each refusal the screens can meet in every language, with the registry’s own words as detail', () => {
    for (const code of [2201, 2302, 2303, 2304, 2305, 2306, 2308, 2400, 2502]) {
      const error = new RegistryRefusedError(code, { message: 'm', reason: 'r', clTRID: 'c', svTRID: 's' });
      for (const language of ['es', 'en', 'ca'] as const)
        expect(translate(language, error.messageKey), `${code} ${language}`).not.toBe(error.messageKey);
      expect(error.detail).toBe(`${code} m (r) [c/s]`);
    }
    expect(
      new RegistryRefusedError(2199 as number, { message: '', reason: '', clTRID: '', svTRID: '' }).messageKey,
    ).toBe('registry.epp.refused');
  });

  it('reads a poll message: a transfer’s data, a pending action’s outcome, a plain notice', () => {
    const message = (resData: string) =>
      readPollMessage(
        readResponse(
          parseEpp(
            `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><response><result code="1301"><msg>Command completed successfully; ack to dequeue</msg></result><msgQ count="2" id="12"><qDate>2026-12-01T10:00:00.0Z</qDate><msg>Transfer requested.</msg></msgQ>${resData}<trID><clTRID>c-1</clTRID><svTRID>s-1</svTRID></trID></response></epp>`,
          ),
        ),
      );
    const transfer = message(
      '<resData><d:trnData xmlns:d="urn:ietf:params:xml:ns:domain-1.0"><d:name>Tienda.ES</d:name><d:trStatus>pending</d:trStatus><d:reID>other</d:reID><d:reDate>2026-12-01T10:00:00.0Z</d:reDate><d:acID>panel</d:acID><d:acDate>2026-12-06T10:00:00.0Z</d:acDate></d:trnData></resData>',
    );
    expect(transfer).toEqual({
      id: '12',
      queuedAt: Date.UTC(2026, 11, 1, 10) / 1000,
      text: 'Transfer requested.',
      domain: 'tienda.es',
      transfer: {
        state: 'pending',
        requestedBy: 'other',
        requestedAt: Date.UTC(2026, 11, 1, 10) / 1000,
        actionBy: 'panel',
        actionAt: Date.UTC(2026, 11, 6, 10) / 1000,
      },
    });
    const pending = message(
      '<resData><domain:panData xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name paResult="1">tienda.es</domain:name><domain:paTRID><svTRID>s-0</svTRID></domain:paTRID><domain:paDate>2026-12-01T10:00:00.0Z</domain:paDate></domain:panData></resData>',
    );
    expect(pending).toMatchObject({ domain: 'tienda.es', pendingAction: { done: true } });
    expect(pending.transfer).toBeUndefined();
    expect(message('')).toMatchObject({ domain: '', text: 'Transfer requested.' });
  });

  it('compares the panel’s copy with the registry’s: sets as sets, expiry by the day, an auth code never shown', () => {
    const panel = {
      nameservers: ['ns2.a.es', 'NS1.a.es.'],
      blocked: false,
      transferBlock: true,
      whoisPrivacy: false,
      ds: [{ keytag: 1, algorithm: 13, digestType: 2, digest: 'ab' }],
      authInfo: 'old-code',
      glue: [{ name: 'ns1.a.es', ipv4: '192.0.2.1', ipv6: '' }],
      expireTs: Date.UTC(2030, 0, 1, 8) / 1000,
    };
    const same = {
      ...panel,
      nameservers: ['ns1.a.es', 'ns2.a.es'],
      ds: [{ keytag: 1, algorithm: 13, digestType: 2, digest: 'AB' }],
      authInfo: 'old-code',
      expireTs: Date.UTC(2030, 0, 1, 23) / 1000,
    };
    expect(driftOf(panel, same)).toEqual([]);
    expect(driftOf(panel, { ...same, transferBlock: false, authInfo: 'secret-new' })).toEqual([
      { field: 'transferBlock', panel: 'true', registry: 'false' },
      { field: 'authCode', panel: '(kept)', registry: '(another)' },
    ]);
  });
});
