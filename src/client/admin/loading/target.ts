import { DEFAULT_ADMIN_ENTRANCE } from '../../../contract/headers.js';

/** The back office's route base (docs/client.md#routes). */
export const ADMIN_BASE = DEFAULT_ADMIN_ENTRANCE;

/** How long the loading screen lingers (fading) after the shell has taken over, ms (docs/client.md#layout). */
export const UNLOADING_DELAY_MS = 1000;

/** Paths under the base that are never a place to come back to after loading. */
const NOT_A_TARGET = /^\/(?:login|loading)(?:[/?#]|$)/;

/**
 * The loading route carries the place the user wanted (path and query, relative to the base) as one
 * URL-encoded segment: `/chidaoadminstator/loading/%2Fauth%2Fadmin%3Fpage%3D2`.
 */
export function loadingPath(target?: string, base = ADMIN_BASE): string {
  const clean = target === undefined ? undefined : safeTarget(target);
  return clean && clean !== '/' ? `${base}/loading/${encodeURIComponent(clean)}` : `${base}/loading`;
}

/** A target taken from a URL segment: only a path inside the area, never another origin. */
export function safeTarget(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let text = raw.trim();
  if (!text.startsWith('/')) text = `/${text}`;
  // `//host` or `/\host` would leave the site.
  if (/^\/[/\\]/.test(text) || hasControlCharacter(text)) return undefined;
  if (NOT_A_TARGET.test(text)) return undefined;
  return text;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true;
  return false;
}

export function decodeTarget(segment: string | undefined): string | undefined {
  if (!segment) return undefined;
  try {
    return safeTarget(decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/** The part of a location under the base, with its query: `/chidaoadminstator/auth/admin?x=1` → `/auth/admin?x=1`. */
export function targetOf(pathname: string, search = '', base = ADMIN_BASE): string | undefined {
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  const inner = pathname.slice(base.length) || '/';
  const loading = /^\/loading\/([^/]+)/.exec(inner);
  if (loading) return decodeTarget(loading[1]);
  return safeTarget(`${inner}${search}`);
}
