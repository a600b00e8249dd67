import { useMediaQuery } from '@mantine/hooks';

/** Up to 480 px wide (30em, Mantine's `xs`): the layout where a list's columns no longer fit side by side. */
export const PHONE_QUERY = '(max-width: 30em)';

/**
 * Whether the window is phone-sized. Read at the first render (not in an effect), so a phone never
 * draws the wide table first and swaps it a frame later.
 */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false }) ?? false;
}
