/**
 * The channels verification codes travel by (docs/wire-contract.md#code-channels), as the settings screen and the
 * dashboard show them: a channel is offered to members only once a message through it has arrived.
 */

export type CodeChannel = 'email' | 'mobile';

export const CODE_CHANNELS: readonly CodeChannel[] = ['email', 'mobile'];

/**
 * `working`: the last message through the channel's current settings left the site (a test or a code);
 * `failing`: the last one did not; `unchecked`: none went through these settings yet; `notSetUp`: the
 * channel has no settings (mail settings empty, no `SMS_DRIVER`); `outbox`: `SMS_DRIVER=outbox`, which keeps
 * texts in the back office and sends none.
 */
export type CodeChannelState = 'working' | 'failing' | 'unchecked' | 'notSetUp' | 'outbox';

export interface CodeChannelHealth {
  channel: CodeChannel;
  state: CodeChannelState;
  /** Unix seconds of the last message through these settings; null when none went */
  checkedTime: number | null;
  /** what told: `test` (a test message from the settings screen) or `code` (a member's code); '' when unchecked */
  checkedBy: 'test' | 'code' | '';
  /** why the last message failed, as the mail server or SMS service said it; '' otherwise */
  detail: string;
}
