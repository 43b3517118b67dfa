/**
 * Minimal PNG encoder: 8-bit RGBA (colour type 6), no interlacing, one IDAT chunk.
 *
 * Written from the PNG specification (ISO/IEC 15948) so the captcha needs no native image library.
 * Only the chunks a decoder requires are emitted (IHDR, IDAT, IEND): no tEXt/iTXt/zTXt, so nothing
 * but pixels ever leaves the server in a captcha image.
 */
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** IHDR fields that are constant for our output. */
const BIT_DEPTH = 8;
const COLOUR_TYPE_RGBA = 6;
const BYTES_PER_PIXEL = 4;
/** Filter type 0 ("None") on every scanline: the images are tiny, adaptive filtering is not worth it. */
const FILTER_NONE = 0;
/** PNG limits dimensions to 2^31-1; we cap far lower because the whole image is held in memory. */
const MAX_DIMENSION = 16384;

function chunk(type: string, data: Uint8Array): Buffer {
  const typeBytes = Buffer.from(type, 'latin1');
  const header = Buffer.alloc(8);
  header.writeUInt32BE(data.length, 0);
  typeBytes.copy(header, 4);
  const trailer = Buffer.alloc(4);
  // The CRC covers the chunk type and data, not the length field (zlib's CRC-32 is PNG's, ISO 3309).
  trailer.writeUInt32BE(crc32(data, crc32(typeBytes)), 0);
  return Buffer.concat([header, data, trailer]);
}

/**
 * Encodes straight (non-premultiplied) RGBA pixels, row-major from the top-left, into a PNG file.
 * Throws a RangeError when the dimensions are not positive integers or `rgba` has the wrong length.
 */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`PNG dimensions must be positive integers, got ${width}x${height}`);
  }
  if (width > MAX_DIMENSION || height > MAX_DIMENSION) {
    throw new RangeError(`PNG dimensions must not exceed ${MAX_DIMENSION}, got ${width}x${height}`);
  }
  const stride = width * BYTES_PER_PIXEL;
  if (rgba.length !== stride * height) {
    throw new RangeError(`Expected ${stride * height} RGBA bytes, got ${rgba.length}`);
  }

  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = BIT_DEPTH;
  ihdr[9] = COLOUR_TYPE_RGBA;
  ihdr[10] = 0; // compression method: deflate (the only one defined)
  ihdr[11] = 0; // filter method: adaptive filtering with five basic types (the only one defined)
  ihdr[12] = 0; // interlace: none

  // Each scanline is prefixed with its filter type byte.
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const rowStart = y * (stride + 1);
    raw[rowStart] = FILTER_NONE;
    raw.set(rgba.subarray(y * stride, (y + 1) * stride), rowStart + 1);
  }

  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
