import { DEFAULT_CHANNEL } from '@panel247/contract/constants';

/** Messages between open tabs of the panel (spec section 4). */
export type CrossTabMessage =
  | { type: 'user.logout' }
  | { type: 'user.login' }
  | { type: 'user.lang'; language: string }
  | { type: 'theme.color'; color: string }
  | { type: 'theme.dark'; mode: string };

type Listener = (message: CrossTabMessage) => void;

let channel: BroadcastChannel | null = null;
const listeners = new Set<Listener>();

/** Opens the brand's channel (its name comes from the configuration). */
export function openCrossTab(name: string = DEFAULT_CHANNEL): void {
  if (channel || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel(name || DEFAULT_CHANNEL);
  channel.onmessage = (event: MessageEvent<CrossTabMessage>) => {
    if (!event.data || typeof event.data.type !== 'string') return;
    for (const listener of listeners) listener(event.data);
  };
}

export function closeCrossTab(): void {
  channel?.close();
  channel = null;
}

/** Tells the other tabs; the sender's own listeners are not called (BroadcastChannel semantics). */
export function broadcast(message: CrossTabMessage): void {
  channel?.postMessage(message);
}

export function onCrossTab(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
