import { NavLink } from '@mantine/core';
import {
  IconActivity,
  IconAddressBook,
  IconBriefcase,
  IconListDetails,
  IconMailForward,
  IconPalette,
  IconServer,
  IconServer2,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../../lib/use-translation';
import { consolePaths } from '../lib/console-paths';
import { ServersDownBadge } from './servers-down-alert';

interface Entry {
  /** Its text is `console.nav.{id}`, its test id `console-nav-{id}`. */
  id: string;
  to: string;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  /** Active only on this very address (the services are the console's root). */
  exact?: boolean;
}

/** The console's sections, in menu order: a new section is one entry here and its route. */
const ENTRIES: readonly Entry[] = [
  { id: 'services', to: consolePaths.services, icon: IconServer, exact: true },
  { id: 'plans', to: consolePaths.plans, icon: IconListDetails },
  { id: 'accounts', to: consolePaths.accounts, icon: IconAddressBook },
  { id: 'brands', to: consolePaths.brands, icon: IconPalette },
  { id: 'work', to: consolePaths.work, icon: IconBriefcase },
  { id: 'servers', to: consolePaths.servers, icon: IconServer2 },
  { id: 'outbox', to: consolePaths.outbox, icon: IconMailForward },
  { id: 'activity', to: consolePaths.activity, icon: IconActivity },
];

export function ConsoleNav({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    // the layout's navbar is the <nav> landmark, named console.nav.label
    <div>
      {ENTRIES.map(({ id, to, icon: Icon, exact }) => {
        const active = exact ? pathname === to : pathname.startsWith(to);
        return (
          <NavLink
            key={to}
            component={Link}
            to={to}
            label={t(`console.nav.${id}`)}
            active={active}
            aria-current={active ? 'page' : undefined}
            leftSection={<Icon size={18} aria-hidden />}
            rightSection={id === 'servers' ? <ServersDownBadge /> : undefined}
            onClick={onNavigate}
            data-testid={`console-nav-${id}`}
          />
        );
      })}
    </div>
  );
}
