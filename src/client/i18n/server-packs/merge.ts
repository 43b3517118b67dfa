/** Every file of a language's server pack, merged in file-name order as the server merges them. */
export function serverPack(files: Record<string, Record<string, string>>): Readonly<Record<string, string>> {
  return Object.assign({}, ...Object.keys(files).sort().map((file) => files[file]));
}
