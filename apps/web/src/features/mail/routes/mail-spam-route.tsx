import { SPAM_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { SpamView } from '../components/spam-view';

/**
 * `/admin/{id}/service/mail/spam/`: the spam filter needs the mail flag and a visible
 * `servicemail_spam`; otherwise (or for a missing item) the not-found view. The view remounts on
 * another id.
 */
export default function MailSpamRoute() {
  return <ItemGate {...SPAM_VIEW.gate}>{(set) => <SpamView key={set.id} set={set} />}</ItemGate>;
}
