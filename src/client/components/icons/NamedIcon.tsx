import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import SvgIcon from '@mui/material/SvgIcon';
import { loadedIconSets } from './icon-sets.js';
import { useSpriteRevision } from './icon-sprites.js';
import { resolveIcon, resolveSpriteIcon } from './resolve-icon.js';

export interface NamedIconProps {
  /** A BuildAdmin icon name: `fa fa-cube`, `el-icon-UserFilled`, `local-logo`. */
  name: string | null | undefined;
  fontSize?: 'small' | 'medium' | 'large' | 'inherit';
  'aria-label'?: string;
}

/**
 * Draws a BuildAdmin icon name at MUI icon size, from the whole icon sets when a picker has loaded them,
 * else from the few icons the server sends for the screen. While they load, an empty box of the same
 * size keeps the layout still; an empty or unknown name gets a neutral circle.
 */
export function NamedIcon({ name, fontSize = 'small', 'aria-label': ariaLabel }: NamedIconProps) {
  useSpriteRevision();
  const sets = loadedIconSets();
  const drawn = sets ? resolveIcon(name, sets) : resolveSpriteIcon(name);
  const a11y = ariaLabel ? { 'aria-label': ariaLabel, role: 'img' } : { 'aria-hidden': true };
  if (drawn === undefined) return <SvgIcon fontSize={fontSize} data-icon-state="loading" {...a11y} />;
  if (drawn === null) return <RadioButtonUncheckedIcon fontSize={fontSize} data-icon-state="neutral" {...a11y} />;
  return (
    <SvgIcon fontSize={fontSize} viewBox={drawn.viewBox} data-icon-state="drawn" data-icon-family={drawn.family} {...a11y}>
      {/* the body is SVG markup from the icon packages, looked up by name: never text a user typed */}
      <g dangerouslySetInnerHTML={{ __html: drawn.body }} />
    </SvgIcon>
  );
}
