import { Fragment } from 'react';

/**
 * Text in parts with a line-break opportunity (`<wbr>`) between them and nowhere else, for a
 * parent that does not break words (`overflow-wrap: normal`): host names after their dots, hex
 * digests between groups.
 */
export function WrapPoints({ parts }: { parts: string[] }) {
  return parts.map((part, index) => (
    // the parts of one value never move, so their position is their identity
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}
