import { Badge, Group, Tooltip } from '@mantine/core';
import { isVisible } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';

export function isExpired(expireTS: number, now: number = Date.now()): boolean {
  return expireTS * 1000 < now;
}

interface Indicator {
  key: string;
  label: string;
  expireTS: number;
}

/** Expiry of domain, hosting or parking, mail and DNS zone: red dot when past, green otherwise. */
export function indicatorsFor(set: PermissionSetData, t: (key: string) => string): Indicator[] {
  const p = set.permissions;
  const list: Indicator[] = [];
  if (set.domain && isVisible(p.domain))
    list.push({ key: 'domain', label: t('menu.domain'), expireTS: set.domain.expireTS });
  if (set.service && isVisible(p.service)) {
    list.push({
      key: 'service',
      label: set.service.isRedirAndParking ? t('menu.parking') : t('menu.hosting'),
      expireTS: set.service.expireTS,
    });
  }
  if (set.mail && isVisible(p.servicemail))
    list.push({ key: 'mail', label: t('menu.mail'), expireTS: set.mail.expireTS });
  if (set.dnszone && isVisible(p.service_dnszone)) {
    list.push({ key: 'dnszone', label: t('menu.dns_zone'), expireTS: set.dnszone.expireTS });
  }
  return list;
}

export function StatusIndicators({ set }: { set: PermissionSetData }) {
  const { t, i18n } = useTranslation();
  return (
    <Group gap="xs" data-testid="status-indicators">
      {indicatorsFor(set, t).map(({ key, label, expireTS }) => {
        const expired = isExpired(expireTS);
        const date = formatEpoch(expireTS, i18n.language, 'day');
        const tip = t(expired ? 'status.expired_on' : 'status.expires_on', { date });
        return (
          // The date must reach keyboard and touch users too (Mantine shows tooltips on hover only by default).
          <Tooltip key={key} label={tip} withArrow events={{ hover: true, focus: true, touch: true }}>
            <Badge
              variant="dot"
              color={expired ? 'red' : 'green'}
              tabIndex={0}
              aria-label={`${label}: ${tip}`}
              data-testid={`status-${key}`}
              data-expired={expired}
              style={{ textTransform: 'none', cursor: 'help' }}
            >
              {label}
            </Badge>
          </Tooltip>
        );
      })}
    </Group>
  );
}
