// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { previewItems } from './preview';

describe('glue and DNSSEC preview', () => {
  it('shows the first 2, then a show-more for the rest', () => {
    expect(previewItems([1, 2], false)).toEqual({ shown: [1, 2], hidden: 0, canExpand: false });
    expect(previewItems([1, 2, 3], false)).toEqual({ shown: [1, 2], hidden: 1, canExpand: true });
    expect(previewItems([1, 2, 3], true).shown).toEqual([1, 2, 3]);
    expect(previewItems([], false).canExpand).toBe(false);
  });
});
