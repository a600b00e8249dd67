import { describe, expect, it } from 'vitest';
import {
  composeDmarc,
  composeSpf,
  dkimProblem,
  dmarcProblem,
  isSpfDomain,
  mailAuthPolicyProblems,
  mailAuthTxtProblem,
  parseDmarc,
  parseSpf,
  singleTxtKind,
  spfProblem,
} from '../src/mail-auth-rules.ts';

describe('SPF, DMARC and DKIM records', () => {
  it('put SPF includes before the all term, keeping the other terms where they were', () => {
    expect(
      composeSpf(['_spf.google.com', 'spf.example.net'], 'v=spf1 mx a ip4:192.0.2.1 include:old.example ~all'),
    ).toBe('v=spf1 mx a ip4:192.0.2.1 include:_spf.google.com include:spf.example.net ~all');
    expect(composeSpf([], 'v=spf1 -all')).toBe('v=spf1 -all');
    expect(composeSpf(['a.example'])).toBe('v=spf1 mx a include:a.example ~all');
    expect(parseSpf('v=spf1 mx +include:A.example -all')).toEqual({ includes: ['a.example'], others: ['mx', '-all'] });
    expect(parseSpf('hello')).toBeUndefined();
  });

  it('check SPF terms, with the underscore labels big providers use', () => {
    expect(
      spfProblem('v=spf1 a:mail.example.org ip4:192.0.2.0/24 ip6:2001:db8::/32 exists:x.example ?all'),
    ).toBeUndefined();
    expect(spfProblem('v=spf1 include:_spf.google.com redirect=_spf.example.org')).toBeUndefined();
    expect(spfProblem('v=spf1 bogus:thing -all')).toBe('mail.auth.error.spf');
    expect(spfProblem('v=spf1 include:bad_host! -all')).toBe('mail.auth.error.spf_include');
    expect(isSpfDomain('_spf.google.com')).toBe(true);
    expect(isSpfDomain('localhost')).toBe(false);
  });

  it('read and compose DMARC: policy, percentage, mailto report addresses', () => {
    const record = { policy: 'quarantine' as const, pct: 25, rua: ['a@example.org', 'b@example.net'] };
    const text = composeDmarc(record);
    expect(text).toBe('v=DMARC1; p=quarantine; pct=25; rua=mailto:a@example.org,mailto:b@example.net');
    expect(parseDmarc(text)).toEqual(record);
    expect(composeDmarc({ policy: 'none', pct: 100, rua: [] })).toBe('v=DMARC1; p=none');
    expect(parseDmarc('v=DMARC1; p=reject; rua=mailto:r@example.org!10m')).toEqual({
      policy: 'reject',
      pct: 100,
      rua: ['r@example.org'],
    });
    expect(dmarcProblem('v=DMARC1; p=maybe')).toBe('mail.auth.error.dmarc');
    expect(dmarcProblem('p=none; v=DMARC1')).toBe('mail.auth.error.dmarc');
    expect(dmarcProblem('v=DMARC1; p=none; pct=101')).toBe('mail.auth.error.dmarc');
    expect(dmarcProblem('v=DMARC1; p=none; rua=r@example.org')).toBe('mail.auth.error.dmarc_rua');
    expect(dmarcProblem('v=DMARC1; p=none; sp=reject; adkim=s; rua=mailto:r@example.org')).toBeUndefined();
  });

  it('check DKIM key records: DKIM1, a known key type, a base64 key (empty: revoked)', () => {
    expect(dkimProblem('v=DKIM1; k=rsa; p=MIIBIjAN+/==')).toBeUndefined();
    expect(dkimProblem('v=DKIM1; k=ed25519; p=')).toBeUndefined();
    expect(dkimProblem('v=DKIM1; k=dsa; p=AAAA')).toBe('mail.auth.error.dkim');
    expect(dkimProblem('v=DKIM1; k=rsa; p=not base64!')).toBe('mail.auth.error.dkim');
  });

  it('are checked as TXT records only where they declare themselves', () => {
    expect(mailAuthTxtProblem('', 'v=spf1 nonsense')).toBe('mail.auth.error.spf');
    expect(mailAuthTxtProblem('_dmarc', 'v=DMARC1; p=nope')).toBe('mail.auth.error.dmarc');
    expect(mailAuthTxtProblem('_dmarc', 'v=1')).toBeUndefined();
    expect(mailAuthTxtProblem('s1._domainkey', 'v=DKIM1; k=x; p=AA')).toBe('mail.auth.error.dkim');
    expect(mailAuthTxtProblem('www', 'any text at all')).toBeUndefined();
  });

  it('give the guided form one problem per field', () => {
    expect(
      mailAuthPolicyProblems({ dmarcPolicy: 'x', dmarcPct: 1.5, dmarcRua: ['nope'], spfIncludes: ['bad host'] }).map(
        (problem) => problem.field,
      ),
    ).toEqual(['dmarcPolicy', 'dmarcPct', 'dmarcRua', 'spfIncludes']);
    expect(
      mailAuthPolicyProblems({ dmarcPolicy: 'reject', dmarcPct: 0, dmarcRua: [], spfIncludes: ['_spf.google.com'] }),
    ).toEqual([]);
  });

  it('know the TXT records a name may hold once: SPF anywhere (any case), DMARC at _dmarc', () => {
    expect(singleTxtKind('', 'v=spf1 -all')).toBe('spf');
    expect(singleTxtKind('shop', 'V=SPF1')).toBe('spf');
    expect(singleTxtKind('', 'v=spf10 -all')).toBeUndefined();
    expect(singleTxtKind('', 'spf v=spf1')).toBeUndefined();
    expect(singleTxtKind('_dmarc', 'v=DMARC1; p=none')).toBe('dmarc');
    expect(singleTxtKind('_dmarc.shop', 'v = DMARC1')).toBe('dmarc');
    expect(singleTxtKind('_dmarc', 'v=DMARC10; p=none')).toBeUndefined();
    expect(singleTxtKind('', 'v=DMARC1; p=none')).toBeUndefined();
  });
});
