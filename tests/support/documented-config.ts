import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './test-server.js';

/** A config item as the documentation lists it: its name and, where the table says it, its group's English title. */
export interface DocumentedConfigItem {
  name: string;
  group?: string;
  /** the file that documents it, for the failure message */
  file: string;
}

/**
 * Every config item the README and docs/ document: the rows of each Markdown table whose first column
 * is headed "config item" (docs/configuration.md's full list, and the tables of single features).
 */
export function documentedConfigItems(): DocumentedConfigItem[] {
  const files = [
    'README.md',
    ...readdirSync(join(PROJECT_ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const items: DocumentedConfigItem[] = [];
  for (const file of files) {
    const lines = readFileSync(join(PROJECT_ROOT, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const header = cells(line);
      if (header?.[0] !== 'config item' || !/^\|[-| :]+\|$/.test(lines[index + 1]?.trim() ?? '')) return;
      const groupColumn = header.indexOf('group');
      for (let row = index + 2; row < lines.length && lines[row].trim().startsWith('|'); row++) {
        const values = cells(lines[row]) ?? [];
        const name = /^`([a-z0-9_]+)`$/.exec(values[0] ?? '')?.[1];
        if (!name) throw new Error(`${file}:${row + 1}: a config item row without a \`name\``);
        items.push({ name, file, ...(groupColumn > 0 ? { group: values[groupColumn] } : {}) });
      }
    });
  }
  return items;
}

function cells(line: string): string[] | undefined {
  const text = line.trim();
  if (!text.startsWith('|') || !text.endsWith('|')) return undefined;
  return text
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());
}
