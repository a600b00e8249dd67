/**
 * EPP over TCP (RFC 5734 section 4): each data unit is a 32-bit big-endian total length (the
 * four header bytes included) followed by that many bytes of XML.
 */

/** The largest frame taken from a registry or a client: a poll message or an info is a few KB. */
export const EPP_FRAME_MAX = 4 * 1024 * 1024;

const HEADER = 4;

export function encodeFrame(xml: string): Buffer {
  const body = Buffer.from(xml, 'utf8');
  const frame = Buffer.allocUnsafe(HEADER + body.length);
  frame.writeUInt32BE(HEADER + body.length, 0);
  body.copy(frame, HEADER);
  return frame;
}

/** Collects the bytes of a stream and hands out each whole frame's XML, in order. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  /** The frames `chunk` completes (none while one is still arriving). Throws on a bad length. */
  push(chunk: Buffer): string[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: string[] = [];
    while (this.buffered.length >= HEADER) {
      const total = this.buffered.readUInt32BE(0);
      if (total <= HEADER || total > EPP_FRAME_MAX) throw new Error(`EPP frame of ${total} bytes`);
      if (this.buffered.length < total) break;
      frames.push(this.buffered.subarray(HEADER, total).toString('utf8'));
      this.buffered = this.buffered.subarray(total);
    }
    return frames;
  }
}
