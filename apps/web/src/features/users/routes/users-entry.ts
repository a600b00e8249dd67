/**
 * The users' pages' door for the router, as the console has one: a module that imports nothing,
 * so the entry chunk (which the login route loads) names this one file instead of the list of
 * every chunk those pages need.
 */
export function loadUsersRoute() {
  return import('./users-route');
}

export function loadUserRoute() {
  return import('./user-route');
}
