/**
 * Where the login page sends the user once the session exists. Set by the login form just
 * before the session is refreshed, read by the login route's guard.
 */
let target: string | null = null;

export function setPostLoginTarget(path: string): void {
  target = path;
}

export function takePostLoginTarget(): string | null {
  const value = target;
  target = null;
  return value;
}
