import { useEffect } from 'react';
import { MAIN_CONTENT_ID } from './page-focus.js';

/**
 * Where a control sat inside `<main>` (child indexes from it) and what it said. A dialog that has its
 * own route (the add and edit forms over a list) replaces the page under it, so the control that
 * opened it is gone when it closes; the control at the same place saying the same is its successor.
 */
interface ControlTrace {
  path: number[];
  label: string;
  at: number;
}

const CONTROL = 'button, a[href], [role="button"], [role="menuitem"], [role="link"]';
/** An opener is the control activated just before the dialog mounted, not one from long ago. */
const OPENER_AGE_MS = 5_000;
const RESTORE_WAIT_MS = 3_000;

let lastActivated: ControlTrace | undefined;

function labelOf(element: Element): string {
  return (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
}

function traceOf(target: EventTarget | null): ControlTrace | undefined {
  const main = document.getElementById(MAIN_CONTENT_ID);
  const control = target instanceof Element ? target.closest(CONTROL) : null;
  if (!main || !control || !main.contains(control)) return undefined;
  const path: number[] = [];
  for (let node: Element = control; node !== main && node.parentElement; node = node.parentElement) path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
  return { path, label: labelOf(control), at: Date.now() };
}

function find(trace: ControlTrace): HTMLElement | undefined {
  const main = document.getElementById(MAIN_CONTENT_ID);
  if (!main) return undefined;
  let node: Element | undefined = main;
  for (const index of trace.path) node = node?.children[index];
  if (node instanceof HTMLElement && labelOf(node) === trace.label) return node;
  // Moved (a row more or less above it): the one control in the page saying the same.
  const same = Array.from(main.querySelectorAll<HTMLElement>(CONTROL)).filter((element) => labelOf(element) === trace.label);
  return same.length === 1 ? same[0] : undefined;
}

function restore(trace: ControlTrace): void {
  const until = Date.now() + RESTORE_WAIT_MS;
  const attempt = () => {
    // The person has already gone on somewhere: leave focus where they put it.
    if (document.activeElement && document.activeElement !== document.body) return;
    const control = find(trace);
    if (control) control.focus();
    else if (Date.now() < until) window.setTimeout(attempt, 50);
  };
  window.setTimeout(attempt, 0);
}

// Every activation (a click, or Enter and Space on a control, which click it) replaces the last one; a
// control outside the page (the menu, a tab) leaves none, so a dialog it opened has no opener to go back to.
if (typeof document !== 'undefined') document.addEventListener('click', (event) => (lastActivated = traceOf(event.target)), true);

/**
 * For a dialog with its own route: when it closes, focus goes back to the control that opened it
 * (or the one that took its place in the re-drawn page), not to the top of the document.
 */
export function useFocusReturnToOpener(): void {
  useEffect(() => {
    const opener = lastActivated && Date.now() - lastActivated.at < OPENER_AGE_MS ? lastActivated : undefined;
    return () => {
      if (opener) restore(opener);
    };
  }, []);
}
