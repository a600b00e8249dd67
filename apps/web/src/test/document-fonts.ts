/** jsdom has no `document.fonts`, which Mantine's autosize textarea listens to: a silent one. */
export function stubDocumentFonts(): void {
  if ('fonts' in document) return;
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
    configurable: true,
  });
}
