// @vitest-environment node
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CAA_TAGS, DNS_TTLS, DNS_TYPES, valueLabelKey } from '@panel247/contract/dns-rules';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { ttlLabelKey } from './dns-format';

type Tree = { [key: string]: string | Tree };
const lookup = (tree: Tree, key: string) =>
  key
    .split('.')
    .reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);

/** Keys the code builds at run time, which the i18n completeness test cannot see as literals. */
describe('DNS i18n keys built at run time', () => {
  const rulesSource = readFileSync(createRequire(import.meta.url).resolve('@panel247/contract/dns-rules'), 'utf8');
  const ruleKeys = [
    ...new Set([...rulesSource.matchAll(/'((?:dns|validation)\.[a-z0-9_.]+)'/g)].map((m) => m[1] ?? '')),
  ];
  const keys = [
    ...ruleKeys,
    ...DNS_TYPES.map(valueLabelKey),
    ...DNS_TTLS.map(ttlLabelKey),
    ...CAA_TAGS.map((tag) => `dns.caa_tag_${tag}`),
  ];

  it('finds the shared rules’ error keys', () => {
    expect(ruleKeys).toContain('dns.error.ipv4');
    expect(ruleKeys).toContain('validation.required');
  });

  it.each([
    ['es', es],
    ['en', en],
  ])('%s has a text for each', (_name, tree) => {
    expect(keys.filter((key) => typeof lookup(tree as Tree, key) !== 'string')).toEqual([]);
  });
});
