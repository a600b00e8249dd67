import { Anchor, Breadcrumbs, Skeleton, Text } from '@mantine/core';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../lib/resource-paths';
import { useTranslation } from '../../../lib/use-translation';

interface Crumb {
  label: string;
  to?: string;
}

export function crumbsFor(pathname: string, item: PermissionSetData | null, t: (key: string) => string): Crumb[] {
  const crumbs: Crumb[] = [{ label: t('menu.dashboard'), to: paths.dashboard }];
  const sections: Record<string, string> = {
    [paths.preferences]: 'menu.preferences',
    [paths.contact]: 'menu.contact',
    '/contact/': 'menu.contact',
    [paths.legal]: 'menu.legal',
    [paths.domainList]: 'menu.domains',
    [paths.serviceList]: 'menu.services',
    [paths.mailList]: 'menu.mails',
    [paths.activity]: 'menu.activity',
    [paths.users]: 'menu.users',
  };
  const normalized = pathname.endsWith('/') ? pathname : `${pathname}/`;
  const section = sections[normalized];
  if (section) {
    crumbs.push({ label: t(section) });
  } else if (/^\/admin\/users\/\d+\/$/.test(normalized)) {
    crumbs.push({ label: t('menu.users'), to: paths.users }, { label: t('menu.user') });
  } else if (item) {
    const parking = item.service?.isRedirAndParking ?? false;
    crumbs.push({ label: item.reference, to: `/admin/${item.id}/` });
    const rest = normalized.slice(`/admin/${item.id}/`.length);
    if (rest.startsWith('domain/')) crumbs.push({ label: t('menu.domain') });
    if (rest.startsWith('mail/')) crumbs.push({ label: t('menu.mail') });
    if (rest.startsWith('activity/')) crumbs.push({ label: t('menu.activity') });
    if (rest === 'service/mail/spam/') {
      // a mail page, though its address sits under the service's
      crumbs.push({ label: t('menu.mail'), to: paths.mail(item.id) }, { label: t('menu.mail_spam') });
    } else if (rest.startsWith('service/')) {
      const sub = rest.slice('service/'.length);
      const subLabels: Record<string, string> = {
        'ftp/': 'menu.ftp',
        'files/': 'menu.files',
        'subdomain/': 'menu.sites',
        'ddbb/': 'menu.databases',
        'dns/': 'menu.dns_zone',
        'backups/': 'menu.backups',
        'cron/': 'menu.cron',
      };
      const label = parking ? t('menu.parking') : t('menu.hosting');
      if (subLabels[sub]) {
        crumbs.push({ label, to: paths.service(item.id) }, { label: t(subLabels[sub]) });
      } else {
        crumbs.push({ label });
      }
    }
  }
  // The last crumb is the current page: never a link.
  const last = crumbs[crumbs.length - 1];
  if (last && crumbs.length > 1) last.to = undefined;
  return crumbs;
}

/**
 * The trail to the current page. While an item page's resource loads, its part of the trail is a
 * placeholder of about its size, so the frame does not collapse and jump back a moment later.
 */
export function Breadcrumb({ item, itemLoading = false }: { item: PermissionSetData | null; itemLoading?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const crumbs = crumbsFor(pathname, item, t);
  const pending = itemLoading && crumbs.length === 1;
  return (
    <nav aria-label={t('main.breadcrumb')}>
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        {pending
          ? [
              <Anchor key="dashboard" component={Link} to={paths.dashboard} size="sm">
                {t('menu.dashboard')}
              </Anchor>,
              <Skeleton key="item" height={12} width={140} radius="sm" data-testid="breadcrumb-skeleton" />,
            ]
          : crumbs.map((crumb, index) =>
              crumb.to ? (
                <Anchor key={`${crumb.to ?? index}|${crumb.label}`} component={Link} to={crumb.to} size="sm">
                  {crumb.label}
                </Anchor>
              ) : (
                <Text key={`${crumb.to ?? index}|${crumb.label}`} size="sm" aria-current="page">
                  {crumb.label}
                </Text>
              ),
            )}
      </Breadcrumbs>
    </nav>
  );
}
