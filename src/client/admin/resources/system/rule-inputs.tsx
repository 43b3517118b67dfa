import { useWatch } from 'react-hook-form';
import type { ResourceDefinition } from '../../../../schema/definition.js';
import type { WriteMode } from '../../../../schema/validate-input.js';
import { GeneratedInputs } from '../GeneratedInputs.js';

/**
 * Which fields of a menu rule (admin or member) mean something for its type, as BuildAdmin's rule
 * forms show them: a button is only a permission node; a directory has no page; a member route has a
 * page but no place in a menu; a menu's page depends on how it opens. Names a schema lacks are ignored.
 */
function hiddenRuleFields(type: unknown, menuType: unknown): Set<string> {
  if (type === 'button') return new Set(['path', 'icon', 'menu_type', 'url', 'component', 'keepalive', 'no_login_valid']);
  if (type === 'menu_dir') return new Set(['menu_type', 'url', 'component', 'keepalive']);
  if (type === 'route') return new Set(['icon', 'menu_type', 'url', 'keepalive']);
  if (menuType === 'link' || menuType === 'iframe') return new Set(['component', 'keepalive']);
  return new Set(['url']);
}

/** The inputs of a rule form, those of its type and menu type only. */
export function RuleInputs({ definition, mode }: { definition: ResourceDefinition; mode: WriteMode }) {
  const [type, menuType] = useWatch<{ type?: unknown; menu_type?: unknown }, ['type', 'menu_type']>({ name: ['type', 'menu_type'] });
  const overrides = Object.fromEntries([...hiddenRuleFields(type, menuType)].map((name) => [name, null]));
  return <GeneratedInputs definition={definition} mode={mode} overrides={overrides} />;
}
