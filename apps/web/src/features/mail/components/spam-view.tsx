import { isActionable } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { ListPage } from '../../../components/list-page';
import { NotFoundView } from '../../../components/not-found-view';
import { ApiError } from '../../../lib/api-client';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useMailSpam } from '../api/get-mail-spam';
import { SpamFilteredCard } from './spam-filtered-card';
import { SpamMailboxesCard } from './spam-mailboxes-card';
import { SpamSendersCard } from './spam-senders-card';

/**
 * The spam filter of a mail service (beyond the spec): each mailbox's filtering, the allow and
 * block lists, and what was filtered lately. Everyone who sees it reads it all; changes need the
 * spam right, read live from the permission set.
 */
export function SpamView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const domain = set.referencePunycode;
  // the session's rights change live (permissions.changed): read at each render
  const canWrite = isActionable(set.permissions.servicemail_spam);
  usePageTitle(`${t('menu.mail_spam')} · ${set.reference}`);

  const spam = useMailSpam(serviceId);
  // a service that is not there (or no longer the user's) answers 404
  const missing = spam.error instanceof ApiError && spam.error.status === 404;
  useErrorToast(spam.error, !missing);
  if (missing) return <NotFoundView />;

  const state = { loading: spam.isPending, failed: spam.isError, busy: spam.isFetching };
  return (
    <ListPage testId="spam-view" title={set.reference}>
      <SpamMailboxesCard
        serviceId={serviceId}
        domain={domain}
        mailboxes={spam.data?.mailboxes ?? []}
        canWrite={canWrite}
        {...state}
      />
      <SpamSendersCard
        serviceId={serviceId}
        senders={spam.data?.senders ?? []}
        maxSenders={spam.data?.maxSenders ?? null}
        canWrite={canWrite}
        {...state}
      />
      <SpamFilteredCard domain={domain} filtered={spam.data?.filtered ?? null} {...state} />
    </ListPage>
  );
}
