/**
 * A mailbox folder's name as mail programs show it, from the name Dovecot gives its Maildir++
 * folder: `.Sent` → "Sent", `.Archive.2024` → "Archive / 2024", and IMAP's modified UTF-7 for
 * what is not ASCII (`.Elementos &AOk-nviados` → "Elementos énviados"). A few lines instead of a
 * library: the packages that decode it need Node's Buffer in the browser.
 */
export function mailFolderName(folder: string): string {
  return folder.replace(/^\./, '').split('.').map(decodeModifiedUtf7).join(' / ');
}

/** RFC 3501 §5.1.3: `&…-` holds UTF-16 in base64 with `,` for `/`; `&-` is a plain `&`. */
function decodeModifiedUtf7(name: string): string {
  return name.replace(/&([A-Za-z0-9+,]*)-/g, (_, encoded: string) => {
    if (encoded === '') return '&';
    const binary = atob(encoded.replace(/,/g, '/').padEnd(Math.ceil(encoded.length / 4) * 4, '='));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-16be').decode(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  });
}
