import { Outlet } from 'react-router';
import { ItemGate } from '../../../components/item-gate';

/** The services main view: its children (overview, ftp, sites, databases, DNS zone, backups) fill the outlet. */
export default function ServiceRoute() {
  return (
    <ItemGate
      requires={[
        'service',
        'service_ftp',
        'service_subdomains',
        'service_redirects',
        'service_ddbb',
        'service_dnszone',
        'service_parking',
        'service_backups',
      ]}
      flag="hasService"
    >
      {() => <Outlet />}
    </ItemGate>
  );
}
