/** One text message: the template it was made from, its parameters and its rendered text. */
export interface SmsMessage {
  mobile: string;
  /** our template's code (`sms_template.template_code`) */
  templateCode: string;
  /** the provider's template ID (`sms_template.provider_template`), '' when the provider needs none */
  providerTemplate: string;
  params: Record<string, string>;
  content: string;
}

/** Where SMS go; rejects when the message could not be handed over. */
export interface SmsDriver {
  /**
   * Whether a message handed over leaves the site for the member's phone: false for the outbox, which
   * only keeps it, so its codes are never offered and never reported sent.
   */
  readonly sends: boolean;
  /**
   * What the messages go through (service and account, no secret), so a channel check made through one
   * set of settings does not vouch for another.
   */
  readonly route: string;
  send(message: SmsMessage): Promise<void>;
}
