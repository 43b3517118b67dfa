import { BlockList, isIP } from 'node:net';

function entriesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** One entry as an address or a range, or nothing when it is neither. */
function readEntry(entry: string): { address: string; type: 'ipv4' | 'ipv6'; prefix?: number } | undefined {
  const [address, prefixText, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, type };
  const prefix = Number(prefixText);
  return /^\d{1,3}$/.test(prefixText) && prefix <= (family === 4 ? 32 : 128) ? { address, type, prefix } : undefined;
}

/**
 * A list of IPv4/IPv6 addresses and CIDR ranges, one per line (commas and spaces also separate), as
 * the blocked addresses (`no_access_ip`) and a survey provider's callback allowlist are written.
 * Entries that are neither are ignored, so one typo does not spoil the rest of the list.
 */
export class AddressList {
  private constructor(private readonly list: BlockList) {}

  static parse(text: string): AddressList {
    const list = new BlockList();
    for (const entry of entriesOf(text)) {
      const read = readEntry(entry);
      if (!read) continue;
      if (read.prefix === undefined) list.addAddress(read.address, read.type);
      else list.addSubnet(read.address, read.prefix, read.type);
    }
    return new AddressList(list);
  }

  /** The entries of `text` that are neither an address nor a CIDR range (those `parse` skips). */
  static unreadableEntries(text: string): string[] {
    return entriesOf(text).filter((entry) => !readEntry(entry));
  }

  /** Whether `ip` (as the request reports it; IPv4-mapped IPv6 included) is on the list. */
  includes(ip: string): boolean {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    const address = mapped ? mapped[1] : ip;
    const family = isIP(address);
    if (!family) return false;
    return this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}
