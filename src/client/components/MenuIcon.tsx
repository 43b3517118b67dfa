import { NamedIcon } from './icons/index.js';

/** A rule's icon name (`fa fa-user`, `el-icon-UserFilled`, `local-logo`) drawn from the icon sets. */
export function MenuIcon({ name, fontSize = 'small' }: { name: string; fontSize?: 'small' | 'medium' | 'inherit' }) {
  return <NamedIcon name={name} fontSize={fontSize} />;
}
