import { BlockList, isIP } from 'node:net';

/**
 * The `no_access_ip` config (docs/wire-contract.md#ip-blacklist): one IPv4/IPv6 address or CIDR range per line (commas and
 * spaces also separate). Lines that are neither are ignored, so a typo cannot lock everyone out.
 */
export function parseIpBlacklist(text: string): BlockList {
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
  return list;
}

/** Whether `ip` (as the request reports it; IPv4-mapped IPv6 included) is on the list. */
export function isBlocked(list: BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1] : ip;
  const family = isIP(address);
  if (!family) return false;
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The parsed list of the current config text, rebuilt only when the text changes. */
export class IpBlacklist {
  private text = '';
  private list = new BlockList();

  matches(configText: string, ip: string): boolean {
    if (configText !== this.text) {
      this.text = configText;
      this.list = parseIpBlacklist(configText);
    }
    return configText !== '' && isBlocked(this.list, ip);
  }
}
