export { NamedIcon, type NamedIconProps } from './NamedIcon.js';
export { iconNameOf, parseIconName, type IconFamily, type IconRef } from './icon-name.js';
export { loadIconSets, useIconSets, type IconSets } from './icon-sets.js';
export { iconNames, resolveIcon, type DrawnIcon } from './resolve-icon.js';
