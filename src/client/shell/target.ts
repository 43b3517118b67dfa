/** Paths under the base that are never a place to come back to after loading. */
const NOT_A_TARGET = /^\/(?:login|loading)(?:[/?#]|$)/;

/**
 * The loading route carries the place the user wanted (path and query, relative to the base) as one
 * URL-encoded segment: `/chidaoadminstator/loading/%2Fauth%2Fadmin%3Fpage%3D2`, `/user/loading/%2Fwallet`.
 */
export function loadingPath(target: string | undefined, base: string): string {
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

/** The part of a location under the area's base, with its query: `/chidaoadminstator/auth/admin?x=1` → `/auth/admin?x=1`. */
export function targetOf(pathname: string, search: string, base: string): string | undefined {
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  const inner = pathname.slice(base.length) || '/';
  const loading = /^\/loading\/([^/]+)/.exec(inner);
  if (loading) return decodeTarget(loading[1]);
  return safeTarget(`${inner}${search}`);
}
