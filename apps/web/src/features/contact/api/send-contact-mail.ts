import type { ContactMailParams } from '@panel247/contract/contact';
import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export async function sendContactMail(input: ContactMailParams) {
  return (await apiCall<EmptyData>(API.contactMail, input, { method: 'POST' })).system;
}

export function useSendContactMail() {
  return useMutation({ mutationFn: sendContactMail });
}
