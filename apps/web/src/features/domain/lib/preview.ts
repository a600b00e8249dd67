import { PREVIEW_ITEMS } from '@panel247/contract/domain-rules';

/** Glue and DNSSEC fieldsets show the first 2 entries, then a show-more button (spec section 2). */
export function previewItems<T>(items: readonly T[], expanded: boolean, size: number = PREVIEW_ITEMS) {
  return {
    shown: expanded ? items : items.slice(0, size),
    hidden: Math.max(0, items.length - size),
    canExpand: items.length > size,
  };
}
