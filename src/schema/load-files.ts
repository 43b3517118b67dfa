import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { LANGUAGES, type Language } from '../contract/headers.js';
import { createAjv } from './ajv.js';
import { checkResources } from './check.js';
import { SchemaError } from './normalise.js';
import type { ResourceDefinition } from './definition.js';
import type { SchemaLocaleFile, TextSources } from './local-text.js';
import { schemaLocaleMetaSchema } from './meta-schema.js';
import { messageOf } from '../contract/checks.js';

/** The project's message files: `locales/<lang>/server/*.json`, the glossary of English texts. */
const PROJECT_LOCALES_DIR = resolve(import.meta.dirname, '../../locales');

function listJsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return listJsonFiles(path);
      return name.endsWith('.json') ? [path] : [];
    });
}

function readJson(path: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SchemaError(file, '', `not valid JSON: ${messageOf(error)}`);
  }
}

/** One language's message pack: every `*.json` of `<localesDir>/<lang>/server`, merged in file-name order. */
export function readMessagePack(localesDir: string, lang: Language): Record<string, string> {
  const dir = join(localesDir, lang, 'server');
  const pack: Record<string, string> = {};
  if (!existsSync(dir)) return pack;
  for (const file of readdirSync(dir).sort()) {
    if (file.endsWith('.json')) Object.assign(pack, JSON.parse(readFileSync(join(dir, file), 'utf8')));
  }
  return pack;
}

const localeValidator = createAjv({ coerce: false }).compile(schemaLocaleMetaSchema);

/** `locales/<lang>/schemas/<id>.json` beside the schemas directory, checked, for each language that has one. */
function localeFilesOf(base: string, id: string): Partial<Record<Language, SchemaLocaleFile>> {
  const found: Partial<Record<Language, SchemaLocaleFile>> = {};
  for (const lang of LANGUAGES) {
    const path = join(base, 'locales', lang, 'schemas', `${id}.json`);
    if (!existsSync(path)) continue;
    const file = relative(base, path).replace(/\\/g, '/');
    found[lang] = checkSchemaLocale(file, readJson(path, file));
  }
  return found;
}

/** Check one schema locale file (`{title, menu, fields}`) against its meta-schema; `file` names it in the error. */
export function checkSchemaLocale(file: string, raw: unknown): SchemaLocaleFile {
  if (!localeValidator(raw)) {
    const error = localeValidator.errors?.[0];
    const extra = error?.keyword === 'additionalProperties' ? `/${String((error.params as { additionalProperty: string }).additionalProperty)}` : '';
    throw new SchemaError(file, `${error?.instancePath ?? ''}${extra}`, error?.keyword === 'additionalProperties' ? 'unknown key' : (error?.message ?? 'invalid'));
  }
  return raw as SchemaLocaleFile;
}

/** A locale file may only name fields and options its schema has. */
function checkLocaleNames(definitions: ResourceDefinition[], locales: Map<string, Partial<Record<Language, SchemaLocaleFile>>>): void {
  for (const definition of definitions) {
    for (const [lang, locale] of Object.entries(locales.get(definition.id) ?? {})) {
      const file = `locales/${lang}/schemas/${definition.id}.json`;
      for (const [name, entry] of Object.entries(locale.fields ?? {})) {
        const field = definition.fields.find((item) => item.name === name);
        if (!field) throw new SchemaError(file, `/fields/${name}`, `"${definition.id}" has no field "${name}"`);
        for (const value of Object.keys(typeof entry === 'object' ? (entry.options ?? {}) : {})) {
          if (!field.ui.options?.[value]) throw new SchemaError(file, `/fields/${name}/options/${value}`, `"${name}" has no option "${value}" in x-ui.options`);
        }
      }
    }
  }
}

/** One schema file as read, with the texts it draws on; `checkResources` turns a set of them into definitions. */
export interface SchemaFile {
  /** relative to the project, for messages */
  file: string;
  raw: unknown;
  sources: TextSources;
}

/** The glossary of English texts in every language (`locales/<lang>/server/*.json`). */
export function schemaGlossary(localesDir: string = PROJECT_LOCALES_DIR): TextSources['glossary'] {
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, readMessagePack(localesDir, lang)]));
}

/**
 * Read `schemas/**\/*.json` from `dir` with their locale files beside `dir` (`../locales/<lang>/schemas/`),
 * unchecked; `checkSchemaFiles` checks them, alone or beside schemas from elsewhere (the database).
 */
export function readSchemaFiles(dir: string, localesDir: string = PROJECT_LOCALES_DIR): SchemaFile[] {
  const base = join(dir, '..');
  const glossary = schemaGlossary(localesDir);
  return listJsonFiles(dir).map((path) => {
    const file = relative(base, path).replace(/\\/g, '/');
    const raw = readJson(path, file);
    const id = typeof (raw as { $id?: unknown })?.$id === 'string' ? (raw as { $id: string }).$id : undefined;
    const locale = id && /^[a-z0-9_]+(\/[a-z0-9_]+)+$/.test(id) ? localeFilesOf(base, id) : {};
    return { file, raw, sources: { glossary, locale } };
  });
}

/** Check a set of schemas (meta-schema, normalising, references between them, their locale files' names). */
export function checkSchemaFiles(files: SchemaFile[]): ResourceDefinition[] {
  const definitions = checkResources(files);
  const locales = new Map<string, Partial<Record<Language, SchemaLocaleFile>>>();
  for (const [index, { sources }] of files.entries()) if (sources.locale) locales.set(definitions[index].id, sources.locale);
  checkLocaleNames(definitions, locales);
  return definitions;
}

/**
 * Load `schemas/**\/*.json` from `dir`, check every file and return the normalised definitions, their
 * texts resolved in every language from the schema, its locale files beside `dir`
 * (`../locales/<lang>/schemas/`) and the glossary (`localesDir`, the project's message files).
 * Throws a SchemaError naming the file (relative to the project) and the JSON path.
 */
export function loadResourceDefinitions(dir: string, localesDir: string = PROJECT_LOCALES_DIR): ResourceDefinition[] {
  return checkSchemaFiles(readSchemaFiles(dir, localesDir));
}
