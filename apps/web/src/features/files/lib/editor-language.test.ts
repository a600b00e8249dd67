// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { extensionOf, languageFor } from './editor-language';

describe('editor language', () => {
  it('goes by the last extension, in any case; a leading dot is a name, not an extension', () => {
    expect(extensionOf('index.HTML')).toBe('html');
    expect(extensionOf('app.min.js')).toBe('js');
    expect(extensionOf('.htaccess')).toBe('');
    expect(extensionOf('README')).toBe('');
  });

  it('highlights the web languages and leaves anything else plain', async () => {
    expect(languageFor('index.php')).not.toBeNull();
    expect(languageFor('style.css')).not.toBeNull();
    expect(languageFor('.htaccess')).toBeNull();
    expect(languageFor('notes.txt')).toBeNull();
    const support = await languageFor('data.json')?.();
    expect(support?.language.name).toBe('json');
  });
});
