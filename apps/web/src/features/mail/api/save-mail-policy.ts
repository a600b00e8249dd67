import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailAuthQueryKey } from './get-mail-auth';

/** The form's values as sent (`MailAuthPolicyParams` of the contract, lists as lists). */
export interface MailPolicyInput {
  dmarcPolicy: string;
  dmarcPct: number;
  dmarcRua: string[];
  spfIncludes: string[];
}

export async function saveMailPolicy(serviceId: number, input: MailPolicyInput) {
  // A form sends nothing for an empty list, which the call reads as "leave that record alone":
  // an emptied list goes as '' (the empty list) so clearing it is a change.
  const asList = (values: string[]) => (values.length > 0 ? values : '');
  const { data, system } = await apiCall<MailAuthData>(
    MAIL_AUTH_API.policy(serviceId),
    { ...input, dmarcRua: asList(input.dmarcRua), spfIncludes: asList(input.spfIncludes) },
    { method: 'POST' },
  );
  return { data, info: system.info };
}

/** The guided DMARC and SPF form; the answer is the card's new state. */
export function useSaveMailPolicy(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MailPolicyInput) => saveMailPolicy(serviceId, input),
    onSuccess: ({ data }) => queryClient.setQueryData(mailAuthQueryKey(serviceId), data),
  });
}
