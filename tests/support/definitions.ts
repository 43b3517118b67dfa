import { resolve } from 'node:path';
import type { ResourceDefinition } from '../../src/schema/definition.js';
import { loadResourceDefinitions } from '../../src/schema/load-files.js';

/** The project's schemas normalised as the server sends them to the back office (`Index/index` → `definitions`). */
export const PROJECT_DEFINITIONS: ResourceDefinition[] = loadResourceDefinitions(resolve(import.meta.dirname, '../../schemas'));

/** Menu names of every schema screen (`Index/index` → `schemaPages`). */
export const PROJECT_SCHEMA_PAGES: string[] = PROJECT_DEFINITIONS.flatMap((definition) => (definition.menu ? [definition.menu.name] : []));
