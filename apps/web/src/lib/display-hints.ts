/**
 * What a browser reads from itself while it renders (its time zone, whether it is phone-sized)
 * and a server drawing the page must be told (apps/server/src/http/view-hints.ts reads them from
 * the view cookie). The browser never sets these: its own answers apply. The server's render is
 * synchronous, so one page's hints hold for the whole of its render.
 */
export interface DisplayHints {
  /** An IANA zone; none: the runtime's own. */
  timeZone?: string;
  /** None: the window says (a set value would win over the window's own answer). */
  phone?: boolean;
}

export const displayHints: DisplayHints = {};

/** The hints of the page the server draws next. */
export function setDisplayHints(hints: DisplayHints): void {
  displayHints.timeZone = hints.timeZone;
  displayHints.phone = hints.phone;
}
