import type { RealtimeMessage } from '@panel247/contract/realtime';
import { API } from '@panel247/contract/routes';
import { isWorkArea } from '@panel247/contract/work-areas';

export interface RealtimeHandlers {
  onMessage: (message: RealtimeMessage) => void;
}

/** Backoff between reconnects: 1 s, 2 s, 4 s … capped at 30 s, with a little jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.8 + random() * 0.4));
}

function parse(data: unknown): RealtimeMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as { type?: unknown; resourceId?: unknown; area?: unknown };
    if (value.type === 'hello' || value.type === 'session.ended') return { type: value.type };
    if (value.type === 'permissions.changed') {
      return { type: value.type, resourceId: typeof value.resourceId === 'number' ? value.resourceId : null };
    }
    if (value.type === 'work.changed' && isWorkArea(value.area) && typeof value.resourceId === 'number') {
      return { type: value.type, area: value.area, resourceId: value.resourceId };
    }
  } catch {
    // not ours
  }
  return null;
}

/**
 * Keeps a socket to `{basePath}realtime/` (same origin, the session cookie authenticates it) and
 * reconnects with backoff until closed.
 */
export function connectRealtime(basePath: string, handlers: RealtimeHandlers): () => void {
  if (typeof WebSocket === 'undefined') return () => {};
  let socket: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${basePath}${API.realtime}`;

  const open = () => {
    if (closed) return;
    socket = new WebSocket(url);
    socket.onopen = () => {
      attempt = 0;
    };
    socket.onmessage = (event) => {
      const message = parse(event.data);
      if (message) handlers.onMessage(message);
    };
    socket.onclose = () => {
      socket = null;
      if (closed) return;
      timer = setTimeout(open, backoffDelay(attempt++));
    };
  };
  open();

  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    socket?.close();
  };
}
