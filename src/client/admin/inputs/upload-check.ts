import type { UploadConfig } from '../site-config-context.js';

/**
 * Why a file may not be sent (docs/client.md#validation-before-sending), checked before it leaves; the
 * screens show `generated.upload.<name>` from the message files.
 */
export type UploadProblem = 'incomplete' | 'type' | 'size';

function normalisedList(value: string | string[]): string[] {
  const items = Array.isArray(value) ? value : value.split(',');
  return items.map((item) => item.trim().toLowerCase().replace(/^\./, '')).filter(Boolean);
}

/**
 * BuildAdmin's pre-checks (docs/wire-contract.md#upload-pre-checks): a name and a size; the suffix in `allowedSuffixes` or the
 * MIME type in `allowedMimeTypes`; the size within `maxSize` bytes. Undefined when the file may go.
 */
export function checkUpload(file: { name?: string; size?: number; type?: string }, config: UploadConfig): UploadProblem | undefined {
  if (!file.name || file.size === undefined || file.size === null || Number.isNaN(file.size)) return 'incomplete';
  const dot = file.name.lastIndexOf('.');
  const suffix = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  const suffixes = normalisedList(config.allowedSuffixes);
  const mimeTypes = normalisedList(config.allowedMimeTypes);
  const suffixAllowed = suffix !== '' && suffixes.includes(suffix);
  const mimeAllowed = !!file.type && mimeTypes.includes(file.type.toLowerCase());
  if (!suffixAllowed && !mimeAllowed) return 'type';
  if (file.size > config.maxSize) return 'size';
  return undefined;
}

/** The `accept` attribute of the file picker: the allowed suffixes and MIME types, images only for image widgets. */
export function acceptOf(kind: 'image' | 'file', config: UploadConfig): string {
  const images = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg'];
  const suffixes = normalisedList(config.allowedSuffixes).filter((suffix) => kind === 'file' || images.includes(suffix));
  const mimeTypes = normalisedList(config.allowedMimeTypes).filter((type) => kind === 'file' || type.startsWith('image/'));
  const accepted = [...suffixes.map((suffix) => `.${suffix}`), ...mimeTypes];
  return accepted.length ? accepted.join(',') : kind === 'image' ? 'image/*' : '';
}
