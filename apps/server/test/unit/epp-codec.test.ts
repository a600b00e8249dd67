import { describe, expect, it } from 'vitest';
import { eppCommands } from '../../src/drivers/registry/epp/epp-commands.ts';
import { encodeFrame, FrameReader } from '../../src/drivers/registry/epp/epp-frame.ts';
import { RegistryRefusedError } from '../../src/drivers/registry/epp/epp-result.ts';
import { parseEpp, readResponse, xmlText } from '../../src/drivers/registry/epp/epp-xml.ts';
import { translate } from '../../src/i18n/messages.ts';

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
});
