/**
 * The API's GET throttle (docs/wire-contract.md#get-throttle): GET and HEAD requests are counted per client (a
 * signed-in account, else the client IP: `throttleClient` in dispatch.ts) in fixed one-minute windows; past the
 * limit the request is answered without running. Counters live in this
 * process, so with several instances behind a balancer each one counts its own share.
 */

export const RATE_LIMIT_WINDOW_MS = 60_000;

interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  /** requests left in this window */
  remaining: number;
  /** whole seconds until the window resets (at least 1) */
  resetInSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private windows = new Map<string, Window>();
  private lastSweep = 0;

  /** `limit` requests per window and client; 0 turns the throttle off. */
  constructor(
    readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Count one request of `client` and say whether it may go on. */
  hit(client: string): RateLimitVerdict {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(client);
    if (!window || now - window.start >= RATE_LIMIT_WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(client, window);
    }
    window.count += 1;
    const resetInSeconds = Math.max(1, Math.ceil((window.start + RATE_LIMIT_WINDOW_MS - now) / 1000));
    return { allowed: window.count <= this.limit, limit: this.limit, remaining: Math.max(0, this.limit - window.count), resetInSeconds };
  }

  /** Forget finished windows once per window, so idle clients do not accumulate. */
  private sweep(now: number): void {
    if (now - this.lastSweep < RATE_LIMIT_WINDOW_MS) return;
    this.lastSweep = now;
    for (const [client, window] of this.windows) {
      if (now - window.start >= RATE_LIMIT_WINDOW_MS) this.windows.delete(client);
    }
  }
}
