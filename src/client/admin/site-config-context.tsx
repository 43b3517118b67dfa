import { createContext, useContext } from 'react';

/** Upload limits of the site (`siteConfig.upload` of `Index/index`, docs/wire-contract.md#back-office-bootstrap). */
export interface UploadConfig {
  /** bytes */
  maxSize: number;
  /** comma-separated suffixes (BuildAdmin also accepts an array) */
  allowedSuffixes: string | string[];
  /** empty = no MIME check */
  allowedMimeTypes: string[];
  mode?: string;
}

/** The part of `siteConfig` the generated screens read. */
interface SiteConfig {
  /** prefix for relative file URLs (may be protocol-relative); '' = same origin */
  cdnUrl: string;
  upload: UploadConfig;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  cdnUrl: '',
  upload: {
    maxSize: 10485760,
    allowedSuffixes: 'jpg,png,bmp,jpeg,gif,webp,zip,rar,wav,mp4,mp3',
    allowedMimeTypes: [],
    mode: 'local',
  },
};

/**
 * The back office shell provides the bootstrap's `siteConfig` here; widgets (upload checks, image URLs)
 * read it without knowing where it came from. Until the shell provides one, the server defaults apply.
 */
export const SiteConfigContext = createContext<SiteConfig>(DEFAULT_SITE_CONFIG);

export function useSiteConfig(): SiteConfig {
  return useContext(SiteConfigContext);
}
