/** The console's addresses: it lives under `/console/`, apart from the customers' `/admin/` and `/login/`. */
export const consolePaths = {
  services: '/console/',
  plans: '/console/plans/',
  accounts: '/console/accounts/',
  work: '/console/work/',
  outbox: '/console/outbox/',
  activity: '/console/activity/',
  servers: '/console/servers/',
  brands: '/console/brands/',
  brand: (slug: string) => `/console/brands/${encodeURIComponent(slug)}/`,
  login: '/console/login/',
} as const;
