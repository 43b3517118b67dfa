import type { RequestContext } from '../app-context.js';

/**
 * `ajax/buildSuffixSvg` (both areas): a file icon carrying the file's extension, which BuildAdmin's
 * screens show as an `<img>` for attachments that are not images (the attachment list, file inputs). The
 * browser asks for it directly, so it answers an SVG image, not the envelope: `?suffix=zip` labels the
 * icon with the first four characters upper-cased, `background` colours the label band (a colour only;
 * anything else falls back to a colour of the suffix's own).
 */

const SAFE_COLOUR = /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}%?(\s*,\s*\d{1,3}%?){2}(\s*,\s*(0|1|0?\.\d+))?\s*\)|hsla?\(\s*\d{1,3}(\s*,\s*\d{1,3}%){2}(\s*,\s*(0|1|0?\.\d+))?\s*\)|[a-z]{3,20})$/i;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

/** A soft colour picked by the label, so one extension always gets the same one. */
function colourOf(label: string): string {
  let hash = 7;
  for (const char of label) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 360;
  return `hsl(${hash}, 45%, 62%)`;
}

function suffixSvg(suffix: string, background = ''): string {
  const label = [...(suffix.trim() || 'file').toUpperCase()].slice(0, 4).join('');
  const band = SAFE_COLOUR.test(background.trim()) ? background.trim() : colourOf(label);
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">',
    '<path fill="#E4E7EB" d="M120 8h232l120 120v352a24 24 0 0 1-24 24H120a24 24 0 0 1-24-24V32a24 24 0 0 1 24-24z"/>',
    '<path fill="#B8BFC7" d="M352 8v96a24 24 0 0 0 24 24h96z"/>',
    `<rect x="40" y="248" width="368" height="168" rx="16" fill="${escapeXml(band)}"/>`,
    `<text x="224" y="372" font-family="Verdana, Helvetica, Arial, sans-serif" font-size="112" fill="#FFFFFF" text-anchor="middle">${escapeXml(label)}</text>`,
    '</svg>',
  ].join('');
}

function textParam(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export async function buildSuffixSvg(ctx: RequestContext): Promise<void> {
  const svg = suffixSvg(textParam(ctx.params.suffix) || 'file', textParam(ctx.params.background));
  await ctx.reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(svg);
}
