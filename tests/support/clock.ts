/** The wall clock in Unix seconds, as the server writes its times. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Returns once the clock has left second `second`, so two writes a test tells apart cannot share one. */
export async function pastSecond(second: number): Promise<void> {
  while (nowSeconds() <= second) await new Promise((resolve) => setTimeout(resolve, 20));
}
