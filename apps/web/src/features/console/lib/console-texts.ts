import type { TextLoaders } from '../../../lib/i18n';

/**
 * The console's own texts (`console` in the locale files, cut into their own part by
 * locale-parts.ts): their loaders live in the console's chunk, so nothing of the console weighs
 * on the customers' login route.
 */
export const consoleTextLoaders: TextLoaders = {
  es: () => import('virtual:locale/es-console'),
  en: () => import('virtual:locale/en-console'),
  ca: () => import('virtual:locale/ca-console'),
};
