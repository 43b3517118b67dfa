import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../contract/headers.js';
import { schemaMenuTitles, type ResourceDefinition } from '../schema/definition.js';
import { PLATFORM_MENUS } from './db/platform-menus.js';
import { BUTTON_TITLES } from './db/seed.js';

export type RuleTable = 'admin_rule' | 'user_rule';

interface RuleNames {
  menus: Record<string, string>;
  buttons: Record<string, string>;
}

/** The client's names of menus and button actions: `shell.menus`/`shell.buttons`, `memberShell.menus`. */
function clientNames(localesDir: string, lang: Language, table: RuleTable): RuleNames {
  const [file, key] = table === 'admin_rule' ? ['admin/shell.json', 'shell'] : ['member/shell.json', 'memberShell'];
  const path = join(localesDir, lang, file);
  const pack = existsSync(path) ? ((JSON.parse(readFileSync(path, 'utf8')) as Record<string, Partial<RuleNames>>)[key] ?? {}) : {};
  return { menus: pack.menus ?? {}, buttons: pack.buttons ?? {} };
}

/**
 * Rule titles in the admin's language, named as the back office and the member centre name them.
 * Stored titles are in the site's default language (zh-cn), as administrators write them; in another
 * language a menu takes the client's name for it, else the title its schema gives it, and a button the
 * name of its action; what none of them knows shows as stored.
 */
export class RuleTitles {
  private readonly names = new Map<string, RuleNames>();

  /** `resources` gives the running definitions (the schema registry swaps them at run time). */
  constructor(
    localesDir: string,
    private readonly resources: () => ReadonlyMap<string, ResourceDefinition>,
  ) {
    for (const lang of LANGUAGES) {
      for (const table of ['admin_rule', 'user_rule'] as const) this.names.set(`${lang}:${table}`, clientNames(localesDir, lang, table));
    }
  }

  titleIn(lang: Language, table: RuleTable, rule: { name: string; title: string; type?: string }): string {
    if (lang === DEFAULT_LANGUAGE) return rule.title;
    const names = this.names.get(`${lang}:${table}`);
    if (rule.type === 'button') return names?.buttons[rule.name.slice(rule.name.lastIndexOf('/') + 1)] ?? rule.title;
    const schema = table === 'admin_rule' ? schemaMenuTitles(this.resources().values()).get(rule.name.toLowerCase()) : undefined;
    return names?.menus[rule.name] ?? schema?.[lang] ?? rule.title;
  }

  /**
   * A rule's title as a person reads it in a list: in the reader's language while it is still the title
   * the product gave the rule (its seed, its schema's menu, its button's action), as stored once an
   * administrator wrote their own.
   */
  shownTitleIn(lang: Language, table: RuleTable, rule: { name: string; title: string; type?: string }): string {
    if (lang === DEFAULT_LANGUAGE || !this.productTitles(table, rule).has(rule.title)) return rule.title;
    return this.titleIn(lang, table, rule);
  }

  /** The default-language titles the product writes for a rule of this name. */
  private productTitles(table: RuleTable, rule: { name: string; type?: string }): Set<string> {
    const titles = new Set<string>();
    const resources = [...this.resources().values()];
    for (const seed of resources.find((definition) => definition.table === table)?.seed ?? []) {
      if (seed.name === rule.name && typeof seed.title === 'string') titles.add(seed.title);
    }
    const menu = this.names.get(`${DEFAULT_LANGUAGE}:${table}`)?.menus[rule.name];
    if (menu) titles.add(menu);
    if (table === 'admin_rule') {
      const schema = schemaMenuTitles(resources).get(rule.name.toLowerCase());
      if (schema) titles.add(schema[DEFAULT_LANGUAGE]);
      for (const platform of PLATFORM_MENUS) if (platform.name === rule.name) titles.add(platform.title);
      if (rule.type === 'button') {
        const button = BUTTON_TITLES[rule.name.slice(rule.name.lastIndexOf('/') + 1)];
        if (button) titles.add(button);
      }
    }
    return titles;
  }
}
