import type { MailboxData, MailboxRules, MailboxRulesData, MailboxRulesInput } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey, mailQueryKey } from './list-mail';

export const rulesQueryKey = (serviceId: number, accountId: number) =>
  [...mailQueryKey(serviceId), 'rules', accountId] as const;

/** Loaded when the mailbox's autoresponder and forwarding dialog opens. */
export function useMailboxRules(serviceId: number, accountId: number | null) {
  return useQuery({
    queryKey: rulesQueryKey(serviceId, accountId ?? 0),
    queryFn: ({ signal }) =>
      api<MailboxRulesData>(MAIL_API.mailboxRules(serviceId, accountId ?? 0), undefined, { method: 'GET', signal }),
    enabled: accountId !== null,
    // always as the server has it now: a mail client may have changed the mailbox's filters
    staleTime: 0,
  });
}

export async function saveMailboxRules(
  serviceId: number,
  accountId: number,
  input: MailboxRulesInput,
): Promise<{ rules: MailboxRules; info: string[] }> {
  const { data, system } = await apiCall<MailboxRulesData>(
    MAIL_API.mailboxRulesSave(serviceId, accountId),
    { ...input, days: String(input.days) },
    { method: 'POST' },
  );
  return { rules: data.rules, info: system.info };
}

/** The list is asked for again: its rows show whether a mailbox answers or forwards. */
export function useSaveMailboxRules(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, input }: { accountId: number; input: MailboxRulesInput }) =>
      saveMailboxRules(serviceId, accountId, input),
    onSuccess: (_result, { accountId }) => {
      void queryClient.invalidateQueries({ queryKey: rulesQueryKey(serviceId, accountId) });
      return queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) });
    },
  });
}

export async function setMailboxQuota(serviceId: number, accountId: number, quotaMb: number) {
  const { data, system } = await apiCall<MailboxData>(
    MAIL_API.mailboxQuota(serviceId, accountId),
    { quota: String(quotaMb) },
    { method: 'POST' },
  );
  return { mailbox: data.correo, info: system.info };
}

export function useSetMailboxQuota(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, quotaMb }: { accountId: number; quotaMb: number }) =>
      setMailboxQuota(serviceId, accountId, quotaMb),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
