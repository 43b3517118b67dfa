import { FALLBACK_ICON, iconComponentOf } from '../fields/icon-catalog.js';

/** A rule's icon name (`fa fa-user`, `el-icon-UserFilled`) drawn with the shared icon catalogue. */
export function MenuIcon({ name, fontSize = 'small' }: { name: string; fontSize?: 'small' | 'medium' | 'inherit' }) {
  const Icon = (name && iconComponentOf(name)) || FALLBACK_ICON;
  return <Icon fontSize={fontSize} />;
}
