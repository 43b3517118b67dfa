/** Unix seconds: every timestamp column and the envelope's `time` use them. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
