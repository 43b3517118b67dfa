import { AddressList } from '../address-list.js';

/**
 * The blocked client addresses of the `no_access_ip` setting, parsed again only when its text changes.
 * Requests from them are answered with HTTP 403.
 */
export class IpBlacklist {
  private text = '';
  private list = AddressList.parse('');

  matches(configText: string, ip: string): boolean {
    if (configText !== this.text) {
      this.text = configText;
      this.list = AddressList.parse(configText);
    }
    return configText !== '' && this.list.includes(ip);
  }
}
