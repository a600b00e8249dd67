import type { DnsChangeSet, DnsHistoryRecord } from '@panel247/contract/dns-history';
import { hasPriority } from '@panel247/contract/dns-rules';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';
import { ttlLabelKey } from '../lib/dns-format';

/** How the history names a change set (its kind, author, time) and a record of its diff. */
export function useChangeWords() {
  const { t, i18n } = useTranslation();
  return {
    when: (seconds: number) => formatEpoch(seconds, i18n.language, 'second'),
    kind: (change: DnsChangeSet) =>
      change.refersTo === null
        ? t(`dns.history.kind_${change.kind}`)
        : t(`dns.history.kind_${change.kind}`, { id: change.refersTo }),
    who: (change: DnsChangeSet) => change.who || t('dns.history.by_panel'),
    record: (name: string, type: string, record: DnsHistoryRecord) =>
      [name, type, hasPriority(type) ? String(record.priority) : '', record.value, `(${t(ttlLabelKey(record.ttl))})`]
        .filter(Boolean)
        .join(' '),
  };
}
