import type { consoleOutboxDataSchema } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export type OutboxMessage = z.infer<typeof consoleOutboxDataSchema>['messages'][number];

export async function listOutbox(unsentOnly: boolean, signal?: AbortSignal): Promise<OutboxMessage[]> {
  const data = await consoleApi<{ messages: OutboxMessage[] }>(
    CONSOLE_API.outbox,
    { unsent: unsentOnly ? '1' : '0' },
    { method: 'GET', signal },
  );
  return data.messages;
}

/** The newest 100 messages the panel sent or could not send, or only those not sent. */
export function useOutbox(unsentOnly: boolean) {
  return useQuery({
    queryKey: [...consoleQueryKey, 'outbox', unsentOnly],
    queryFn: ({ signal }) => listOutbox(unsentOnly, signal),
    retry: consoleRetry,
  });
}
