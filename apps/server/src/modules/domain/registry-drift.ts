import type { RegistryDs, RegistryGlue, RegistryRecord } from '../../drivers/registry/registry.driver.ts';

/** What the panel keeps of a domain's registry data (its copy, which `registry sync` compares). */
export interface PanelCopy {
  nameservers: string[];
  blocked: boolean;
  transferBlock: boolean;
  whoisPrivacy: boolean;
  ds: RegistryDs[];
  authInfo: string;
  glue: RegistryGlue[];
  expireTs: number;
}

/** One field where the panel's copy and the registry differ, both sides worded for a report. */
export interface Drift {
  field: 'nameservers' | 'blocked' | 'transferBlock' | 'whoisPrivacy' | 'ds' | 'authCode' | 'glue' | 'expiry';
  panel: string;
  registry: string;
}

const dsText = (ds: RegistryDs[]) =>
  ds
    .map((d) => `${d.keytag} ${d.algorithm} ${d.digestType} ${d.digest.toUpperCase()}`)
    .sort()
    .join(', ');
const glueText = (glue: RegistryGlue[]) =>
  glue
    .map((g) => [g.name, g.ipv4, g.ipv6].filter(Boolean).join(' '))
    .sort()
    .join(', ');
const day = (ts: number) => (ts > 0 ? new Date(ts * 1000).toISOString().slice(0, 10) : '');

/**
 * Where the panel's copy of a domain differs from what its registry holds. Name servers, DS and
 * glue compare as sets (the registry keeps no order); expiry by the day (registries differ in the
 * time of day they write); an auth code never shows its value.
 */
export function driftOf(panel: PanelCopy, registry: RegistryRecord): Drift[] {
  const drifts: Drift[] = [];
  const compare = (field: Drift['field'], mine: string, theirs: string) => {
    if (mine !== theirs) drifts.push({ field, panel: mine, registry: theirs });
  };
  const hosts = (list: string[]) =>
    [...list]
      .map((h) => h.toLowerCase().replace(/\.$/, ''))
      .sort()
      .join(', ');
  compare('nameservers', hosts(panel.nameservers), hosts(registry.nameservers));
  compare('blocked', String(panel.blocked), String(registry.blocked));
  compare('transferBlock', String(panel.transferBlock), String(registry.transferBlock));
  compare('whoisPrivacy', String(panel.whoisPrivacy), String(registry.whoisPrivacy));
  compare('ds', dsText(panel.ds), dsText(registry.ds));
  compare('glue', glueText(panel.glue), glueText(registry.glue));
  compare('expiry', day(panel.expireTs), day(registry.expireTs));
  if (registry.authInfo && panel.authInfo !== registry.authInfo)
    drifts.push({ field: 'authCode', panel: '(kept)', registry: '(another)' });
  return drifts;
}
