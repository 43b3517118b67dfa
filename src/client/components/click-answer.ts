/** A click on the rendered captcha image, in CSS pixels from its top-left corner. */
export interface ClickPoint {
  x: number;
  y: number;
}

/**
 * The answer string of the click captcha (docs/wire-contract.md#click-captcha): `"x1,y1-x2,y2;W;H"`, click offsets inside the
 * rendered image joined by `-`, then the rendered width and height, so the server can scale.
 */
export function clickAnswer(points: readonly ClickPoint[], width: number, height: number): string {
  const clicks = points.map((point) => `${Math.round(point.x)},${Math.round(point.y)}`).join('-');
  return `${clicks};${Math.round(width)};${Math.round(height)}`;
}

/** Offset of a pointer event inside an element's box. */
export function offsetIn(rect: { left: number; top: number }, clientX: number, clientY: number): ClickPoint {
  return { x: clientX - rect.left, y: clientY - rect.top };
}
