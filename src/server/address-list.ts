import { BlockList, isIP } from 'node:net';

/**
 * A list of IPv4/IPv6 addresses and CIDR ranges, one per line (commas and spaces also separate), as
 * the blocked addresses (`no_access_ip`) and a survey provider's callback allowlist are written.
 * Entries that are neither are ignored, so one typo does not spoil the rest of the list.
 */
export class AddressList {
  private constructor(private readonly list: BlockList) {}

  static parse(text: string): AddressList {
    const list = new BlockList();
    for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
      const [address, prefixText, extra] = entry.split('/');
      const family = isIP(address);
      if (!family || extra !== undefined) continue;
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefixText === undefined) {
        list.addAddress(address, type);
        continue;
      }
      const prefix = Number(prefixText);
      if (/^\d{1,3}$/.test(prefixText) && prefix <= (family === 4 ? 32 : 128)) list.addSubnet(address, prefix, type);
    }
    return new AddressList(list);
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
