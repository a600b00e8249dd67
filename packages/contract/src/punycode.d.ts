/** The part of punycode.js (the npm package, not Node's deprecated built-in) the rules use. */
declare module 'punycode/punycode.js' {
  const punycode: {
    /** RFC 3492: the Unicode string of a punycode label body (without `xn--`); throws on bad input. */
    decode(input: string): string;
  };
  export default punycode;
}
