/**
 * `npx tsx scripts/bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot>`: what grew between two
 * heap snapshots of one process (`scripts/bench/soak-memory.ts` writes them with BENCH_SOAK_SNAPSHOTS).
 * Prints, by constructor (or node type for strings, arrays, code), the objects and their own bytes in each
 * snapshot, the groups that grew most first; then the most frequent beginnings of the strings that are
 * more numerous in the second snapshot (what a growing cache is keyed by usually shows there).
 * Not a test.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Summary {
  groups: Map<string, { count: number; bytes: number }>;
  strings: Map<string, number>;
}

function summarise(file: string): Summary {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, { count: number; bytes: number }>();
  const strings = new Map<string, number>();
  for (let index = 0; index < data.nodes.length; index += width) {
    const type = types[data.nodes[index + typeAt]];
    const name = data.strings[data.nodes[index + nameAt]];
    const key = type === 'object' || type === 'closure' ? `${name} (${type})` : `(${type})`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += data.nodes[index + sizeAt];
    groups.set(key, group);
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') {
      const start = name.slice(0, 60);
      strings.set(start, (strings.get(start) ?? 0) + 1);
    }
  }
  return { groups, strings };
}

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: heap-diff.ts <before.heapsnapshot> <after.heapsnapshot>');
  process.exit(1);
}
const before = summarise(beforeFile);
const after = summarise(afterFile);
const rows = [...new Set([...before.groups.keys(), ...after.groups.keys()])].map((key) => {
  const was = before.groups.get(key) ?? { count: 0, bytes: 0 };
  const now = after.groups.get(key) ?? { count: 0, bytes: 0 };
  return { key, was, now, grew: now.bytes - was.bytes };
});
const total = (summary: Summary) => [...summary.groups.values()].reduce((sum, group) => sum + group.bytes, 0);
console.log(`total own bytes: ${(total(before) / 1024 / 1024).toFixed(1)} MiB → ${(total(after) / 1024 / 1024).toFixed(1)} MiB`);
console.log('grew most (objects before → after, KiB before → after):');
for (const row of rows.sort((a, b) => b.grew - a.grew).slice(0, 30)) {
  console.log(`  ${String(row.was.count).padStart(8)} → ${String(row.now.count).padEnd(8)} ${(row.was.bytes / 1024).toFixed(0).padStart(7)} → ${(row.now.bytes / 1024).toFixed(0).padEnd(7)} KiB  ${row.key}`);
}
console.log('strings more numerous after (count before → after, first 60 characters):');
const strings = [...after.strings.entries()].map(([text, count]) => ({ text, count, grew: count - (before.strings.get(text) ?? 0) }));
for (const row of strings.sort((a, b) => b.grew - a.grew).slice(0, 25)) console.log(`  ${String(row.count - row.grew).padStart(6)} → ${String(row.count).padEnd(6)} ${JSON.stringify(row.text)}`);
