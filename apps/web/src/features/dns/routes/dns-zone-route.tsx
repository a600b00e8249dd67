import { DNS_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { DnsZoneView } from '../components/dns-zone-view';

/**
 * `/admin/{id}/service/dns/`: the zone list shows only when the service has the DNS-zone function
 * visible; otherwise (or for a missing service) the not-found view. The view remounts on another id.
 */
export default function DnsZoneRoute() {
  return <ItemGate {...DNS_VIEW.gate}>{(set) => <DnsZoneView key={set.id} set={set} />}</ItemGate>;
}
