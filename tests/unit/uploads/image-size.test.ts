import { describe, expect, it } from 'vitest';
import { encodePng } from '../../../src/server/captcha/png-encoder.js';
import { imageInfo } from '../../../src/server/uploads/image-size.js';
import { detectMimeType, saveNamePart, splitFileName } from '../../../src/server/uploads/upload-service.js';

/** Header bytes of each format, built by hand from the specifications, and what must be refused. */

function png(width: number, height: number): Buffer {
  return encodePng(width, height, new Uint8Array(width * height * 4).fill(200));
}

function gif(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(20);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc2, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  sof[9] = 3;
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.from([0xff, 0xff]), sof, Buffer.from([0xff, 0xd9])]);
}

function bmp(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(54);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(54, 2);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(width, 18);
  bytes.writeInt32LE(height, 22);
  return bytes;
}

function riff(chunk: string, data: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(12 + data.length, 4);
  header.write('WEBP', 8, 'latin1');
  header.write(chunk, 12, 'latin1');
  header.writeUInt32LE(data.length, 16);
  return Buffer.concat([header, data, Buffer.alloc(16)]);
}

function webpLossy(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.set([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a]);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return riff('VP8 ', data);
}

function webpLossless(width: number, height: number): Buffer {
  const data = Buffer.alloc(5);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  return riff('VP8L', data);
}

function webpExtended(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', data);
}

describe('image header reader', () => {
  it.each([
    ['png', png(3, 2), 'png', 3, 2],
    ['gif', gif(640, 480), 'gif', 640, 480],
    ['jpeg (progressive SOF2 after fill bytes)', jpeg(1024, 768), 'jpeg', 1024, 768],
    ['bmp', bmp(16, 9), 'bmp', 16, 9],
    ['bmp stored top-down', bmp(16, -9), 'bmp', 16, 9],
    ['webp VP8', webpLossy(300, 200), 'webp', 300, 200],
    ['webp VP8L', webpLossless(5000, 1), 'webp', 5000, 1],
    ['webp VP8X', webpExtended(70000 - 4465, 2), 'webp', 65535, 2],
  ])('reads %s', (_name, bytes, type, width, height) => {
    expect(imageInfo(bytes)).toEqual({ type, width, height });
  });

  it('refuses text, truncated headers, zero sizes and corrupt chunks', () => {
    const corruptPng = Buffer.from(png(3, 2));
    corruptPng[17] ^= 0xff;
    const cases = [
      Buffer.from('this is not an image at all, just some text'),
      Buffer.alloc(0),
      png(3, 2).subarray(0, 20),
      corruptPng,
      gif(0, 10),
      jpeg(10, 10).subarray(0, 24),
      Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]),
      bmp(0, 10),
      webpLossy(10, 10).fill(0, 23, 24),
    ];
    for (const bytes of cases) expect(imageInfo(bytes)).toBeUndefined();
  });
});

describe('upload names and types', () => {
  it('splits the suffix off, lower-cased, or calls it "file"', () => {
    expect(splitFileName('Photo.JPG')).toEqual({ base: 'Photo', suffix: 'jpg' });
    expect(splitFileName('C:\\fakepath\\archive.tar.gz')).toEqual({ base: 'archive.tar', suffix: 'gz' });
    expect(splitFileName('README')).toEqual({ base: 'README', suffix: 'file' });
    expect(splitFileName('odd.p-g')).toEqual({ base: 'odd', suffix: 'file' });
  });

  it('keeps 15 safe characters of the name for the save name', () => {
    expect(saveNamePart('my photo: #1 & more/=+,\'x')).toBe('myphoto1morex');
    expect(saveNamePart('../..secret')).toBe('secret');
    expect(saveNamePart('头像 二〇二四年三月十五日的照片')).toBe('头像二〇二四年三月十五日的照片'.slice(0, 15));
    expect(saveNamePart('<script>"x"</script>')).toBe('scriptxscript');
  });

  it('detects the MIME type from the content, not the name', () => {
    expect(detectMimeType(png(1, 1))).toBe('image/png');
    expect(detectMimeType(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('application/zip');
    expect(detectMimeType(Buffer.from('plain words'))).toBe('text/plain');
    expect(detectMimeType(Buffer.from([0x00, 0x01, 0x02, 0xfe]))).toBe('application/octet-stream');
  });
});
