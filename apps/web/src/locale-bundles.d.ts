/** The texts bundles served by `locale-plugin.ts` (`virtual:locale/{lang}-{part}`). */
declare module 'virtual:locale/*' {
  const texts: Record<string, unknown>;
  export default texts;
}
