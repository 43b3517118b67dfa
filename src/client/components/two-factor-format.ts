import { renderSVG } from 'uqr';

/** What the two-factor screens (the login's second step, the admin's profile) draw a set-up with (docs/two-factor.md). */

/** The QR code of an `otpauth://` address as an image source, drawn in the page (the secret never leaves it). */
export function qrImageSource(uri: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(uri, { border: 2 }))}`;
}

/** A base32 secret in groups of four, as apps ask it typed. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
