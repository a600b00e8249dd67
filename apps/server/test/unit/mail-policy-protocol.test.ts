import { describe, expect, it } from 'vitest';
import {
  PolicyProtocolError,
  PolicyRequestReader,
  policyReply,
} from '../../src/modules/mail-sending/policy-protocol.ts';
import { parseListenAddress } from '../../src/modules/mail-sending/policy-server.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const asObject = (request: ReadonlyMap<string, string>) => Object.fromEntries(request);

describe("Postfix's policy protocol reader", () => {
  it('reads several requests of one connection, whole or split anywhere', () => {
    const stream = 'request=smtpd_access_policy\nsasl_username=a@x.test\n\nrequest=smtpd_access_policy\nsender=\n\n';
    expect(new PolicyRequestReader().push(bytes(stream)).map(asObject)).toEqual([
      { request: 'smtpd_access_policy', sasl_username: 'a@x.test' },
      { request: 'smtpd_access_policy', sender: '' },
    ]);
    const reader = new PolicyRequestReader();
    const requests = [...stream].flatMap((character) => reader.push(bytes(character)));
    expect(requests.map(asObject)).toEqual([
      { request: 'smtpd_access_policy', sasl_username: 'a@x.test' },
      { request: 'smtpd_access_policy', sender: '' },
    ]);
    expect(reader.midRequest).toBe(false);
  });

  it('keeps a value with = in it whole, the last of a repeated name, and says when a request is half read', () => {
    const reader = new PolicyRequestReader();
    expect(reader.push(bytes('ccert_subject=CN=a=b\nsize=1\nsize=2\n'))).toEqual([]);
    expect(reader.midRequest).toBe(true);
    expect(reader.push(bytes('\r\n')).map(asObject)).toEqual([{ ccert_subject: 'CN=a=b', size: '2' }]);
  });

  it('refuses a line over the limit, even before its newline arrives', () => {
    const limits = { maxLineBytes: 64, maxAttributes: 10 };
    expect(() => new PolicyRequestReader(limits).push(bytes(`sender=${'x'.repeat(60)}\n`))).toThrow(
      PolicyProtocolError,
    );
    const reader = new PolicyRequestReader(limits);
    expect(() => reader.push(bytes('sender='.padEnd(70, 'x')))).toThrow(/line too long/);
  });

  it('refuses too many attributes, a line that is not name=value, and an empty request', () => {
    const many = Array.from({ length: 11 }, (_, index) => `a${index}=1\n`).join('');
    expect(() => new PolicyRequestReader({ maxLineBytes: 64, maxAttributes: 10 }).push(bytes(many))).toThrow(
      /too many attributes/,
    );
    for (const bad of ['no equals sign\n', '=value\n', 'Name=1\n', 'bad name=1\n', '\n']) {
      expect(() => new PolicyRequestReader().push(bytes(bad)), bad).toThrow(PolicyProtocolError);
    }
  });

  it('answers one action line and the empty line, never a line break inside', () => {
    expect(policyReply('DUNNO')).toBe('action=DUNNO\n\n');
    expect(() => policyReply('450 text\naction=OK')).toThrow();
    expect(() => policyReply('')).toThrow();
  });

  it('reads the listen address as host and port', () => {
    expect(parseListenAddress('127.0.0.1:10040')).toEqual({ host: '127.0.0.1', port: 10040 });
    expect(parseListenAddress('[::1]:10040')).toEqual({ host: '::1', port: 10040 });
    expect(parseListenAddress('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseListenAddress('/var/spool/postfix/private/panel247-policy')).toEqual({
      path: '/var/spool/postfix/private/panel247-policy',
    });
    expect(() => parseListenAddress('127.0.0.1')).toThrow();
    expect(() => parseListenAddress('relative/socket')).toThrow();
    expect(() => parseListenAddress('127.0.0.1:70000')).toThrow();
  });
});
