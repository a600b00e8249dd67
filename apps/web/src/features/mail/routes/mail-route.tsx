import { MAIL_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { MailView } from '../components/mail-view';

/**
 * `/admin/{id}/mail/`: the mail view needs the mail flag and a visible `servicemail`; otherwise
 * (or for a missing item) the not-found view. The view remounts on another id.
 */
export default function MailRoute() {
  return <ItemGate {...MAIL_VIEW.gate}>{(set) => <MailView key={set.id} set={set} />}</ItemGate>;
}
