import { crc32 } from 'node:zlib';

/**
 * Image type and dimensions read from the header bytes of PNG, GIF, JPEG, BMP and WebP files, written
 * from the formats' specifications: no image library, nothing decoded beyond the header. A file whose
 * header is missing, truncated or inconsistent is not an image (`undefined`), as PHP's getimagesize.
 */

type ImageType = 'png' | 'gif' | 'jpeg' | 'bmp' | 'webp';

interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

export const IMAGE_MIME_TYPES: Record<ImageType, string> = {
  png: 'image/png',
  gif: 'image/gif',
  jpeg: 'image/jpeg',
  bmp: 'image/bmp',
  webp: 'image/webp',
};

/** Larger claims are certainly corrupt (and would be unsafe to show). */
const MAX_DIMENSION = 65535;

function ascii(bytes: Buffer, start: number, length: number): string {
  return bytes.length >= start + length ? bytes.toString('latin1', start, start + length) : '';
}

function sized(type: ImageType, width: number, height: number): ImageInfo | undefined {
  const valid = (n: number) => Number.isInteger(n) && n > 0 && n <= MAX_DIMENSION;
  return valid(width) && valid(height) ? { type, width, height } : undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** allowed bit depths per colour type (PNG spec table 11.1) */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** PNG: the signature, then an IHDR chunk of 13 bytes with a matching CRC. */
function png(bytes: Buffer): ImageInfo | undefined {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (bytes.readUInt32BE(8) !== 13 || ascii(bytes, 12, 4) !== 'IHDR') return undefined;
  if (crc32(bytes.subarray(12, 29)) !== bytes.readUInt32BE(29)) return undefined;
  const depth = bytes[24];
  const colourType = bytes[25];
  if (!PNG_DEPTHS[colourType]?.includes(depth) || bytes[26] !== 0 || bytes[27] !== 0 || bytes[28] > 1) return undefined;
  return sized('png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

/** GIF: `GIF87a`/`GIF89a`, then the logical screen width and height (little-endian). */
function gif(bytes: Buffer): ImageInfo | undefined {
  const signature = ascii(bytes, 0, 6);
  if (bytes.length < 13 || (signature !== 'GIF87a' && signature !== 'GIF89a')) return undefined;
  return sized('gif', bytes.readUInt16LE(6), bytes.readUInt16LE(8));
}

/** JPEG: walk the marker segments from SOI to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC). */
function jpeg(bytes: Buffer): ImageInfo | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    let marker = bytes[offset + 1];
    // Any number of 0xFF fill bytes may precede a marker.
    while (marker === 0xff && offset + 2 < bytes.length) {
      offset += 1;
      marker = bytes[offset + 1];
    }
    offset += 2;
    // Standalone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    // End of image or start of scan before any frame header: no dimensions.
    if (marker === 0xd9 || marker === 0xda) return undefined;
    if (offset + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(offset);
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (length < 8 || offset + 7 > bytes.length) return undefined;
      return sized('jpeg', bytes.readUInt16BE(offset + 5), bytes.readUInt16BE(offset + 3));
    }
    offset += length;
  }
  return undefined;
}

/** BMP: `BM`, then a BITMAPCOREHEADER (12 bytes, 16-bit sizes) or a later DIB header (32-bit sizes). */
function bmp(bytes: Buffer): ImageInfo | undefined {
  if (bytes.length < 26 || ascii(bytes, 0, 2) !== 'BM') return undefined;
  const headerSize = bytes.readUInt32LE(14);
  if (headerSize === 12) return sized('bmp', bytes.readUInt16LE(18), bytes.readUInt16LE(20));
  if (![40, 52, 56, 64, 108, 124].includes(headerSize)) return undefined;
  // A negative height means the rows are stored top-down.
  return sized('bmp', bytes.readInt32LE(18), Math.abs(bytes.readInt32LE(22)));
}

/** WebP: a RIFF `WEBP` container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webp(bytes: Buffer): ImageInfo | undefined {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return undefined;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ') {
    // frame tag (3 bytes), then the key-frame start code 9d 01 2a, then 14-bit width and height
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
    return sized('webp', bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = bytes.readUInt32LE(21);
    return sized('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    return sized('webp', bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1);
  }
  return undefined;
}

const READERS = [png, gif, jpeg, bmp, webp];

/** The type and size of an image file from its bytes, or undefined when it is not a readable image. */
export function imageInfo(bytes: Buffer): ImageInfo | undefined {
  for (const read of READERS) {
    const info = read(bytes);
    if (info) return info;
  }
  return undefined;
}
