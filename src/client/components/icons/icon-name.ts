/**
 * BuildAdmin's icon names, as menu rules and schemas carry them:
 * - `fa fa-cube` (Font Awesome 4 class names; `fa-cube` alone and size or spin modifiers are tolerated),
 * - `el-icon-UserFilled` (Element Plus component names),
 * - `local-logo` (BuildAdmin's own SVG files under `assets/icons`).
 * BuildAdmin's `<Icon>` treats any other text as a Font Awesome class, and so do we.
 */
export type IconFamily = 'fa' | 'ep' | 'local';

export interface IconRef {
  family: IconFamily;
  /** The icon's name inside its family's set: `cube`, `user-filled`, `logo`. */
  key: string;
}

const EL_ICON_PREFIX = 'el-icon-';
const LOCAL_ICON_PREFIX = 'local-';

/** Font Awesome 4 classes that change how an icon is drawn, not which one. */
const FA_MODIFIER = /^fa-(?:fw|lg|[2-5]x|spin|pulse|border|inverse|li|ul|stack(?:-[12]x)?|rotate-\d+|flip-(?:horizontal|vertical)|pull-(?:left|right))$/;

/** `UserFilled` → `user-filled`, the Iconify name of an Element Plus icon. */
export function kebabOf(pascal: string): string {
  return pascal
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** `user-filled` → `UserFilled`, the Element Plus component name BuildAdmin stores. */
function pascalOf(kebab: string): string {
  return kebab
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** Which family and which icon a stored name means, or null for an empty name. */
export function parseIconName(name: string | null | undefined): IconRef | null {
  const text = (name ?? '').trim();
  if (text === '') return null;
  if (text.startsWith(EL_ICON_PREFIX)) return { family: 'ep', key: kebabOf(text.slice(EL_ICON_PREFIX.length).trim()) };
  if (text.startsWith(LOCAL_ICON_PREFIX)) return { family: 'local', key: text.slice(LOCAL_ICON_PREFIX.length).trim() };
  const classes = text.split(/\s+/).filter((token) => token.startsWith('fa-') && !FA_MODIFIER.test(token));
  return { family: 'fa', key: (classes[0] ?? text).replace(/^fa-/, '') };
}

/** The name BuildAdmin stores for an icon of a family. */
export function iconNameOf(ref: IconRef): string {
  switch (ref.family) {
    case 'fa':
      return `fa fa-${ref.key}`;
    case 'ep':
      return `${EL_ICON_PREFIX}${pascalOf(ref.key)}`;
    case 'local':
      return `${LOCAL_ICON_PREFIX}${ref.key}`;
  }
}
