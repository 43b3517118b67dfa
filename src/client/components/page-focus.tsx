import { useEffect, useRef } from 'react';
import { Box } from '@mui/material';

/** Hidden from sight, still read by a screen reader (the usual "sr-only" rule). */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  // in px: MUI reads a plain number up to 1 as a fraction (width: 1 is 100 %)
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** The id of each shell's `<main>`, the target of its skip link. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to main content": the first thing Tab reaches in a shell. Out of sight until focused, then
 * shown over the top left corner; following it puts focus on the page's heading inside `<main>`.
 */
export function SkipLink({ label }: { label: string }) {
  return (
    <Box
      component="a"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        focusPageStart();
      }}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: 2000,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'text.primary',
        boxShadow: 3,
        fontWeight: 600,
        textDecoration: 'underline',
        outline: '2px solid',
        outlineColor: 'primary.main',
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      {label}
    </Box>
  );
}

/**
 * Puts focus on the page's heading: the first `h1` inside the shell's `<main>` (made focusable by
 * script only, tabIndex -1), else `<main>` itself. Answers whether something took focus.
 */
function focusPageStart(): boolean {
  const main = document.getElementById(MAIN_CONTENT_ID);
  if (!main) return false;
  const target = main.querySelector<HTMLElement>('h1') ?? main;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: false });
  return document.activeElement === target;
}

/**
 * After something on the page removed the control that had focus (a deleted row and its buttons, a
 * bulk toolbar gone with the selection), focus would fall to `<body>` and a keyboard or screen-reader
 * user would start again from the top of the document. Watches briefly, and once focus has fallen,
 * puts it on the page's heading instead. Focus that went somewhere else on purpose stays there.
 */
export function keepFocusInPage(): void {
  let tries = 0;
  const timer = window.setInterval(() => {
    tries += 1;
    const active = document.activeElement;
    if (!active || active === document.body) {
      focusPageStart();
      window.clearInterval(timer);
    } else if (tries >= 60) window.clearInterval(timer);
  }, 50);
}

/** The path the document itself was loaded at: arriving there is not a page change to announce. */
function landingPath(): string | undefined {
  const entry = typeof performance !== 'undefined' ? performance.getEntriesByType?.('navigation')[0] : undefined;
  return entry ? new URL(entry.name).pathname : undefined;
}

let landed = false;

/**
 * After a page change inside a shell (a menu entry, a tab, the end of a login, back and forward),
 * focus moves to the new page's heading, so the next Tab starts in the page and a screen reader
 * reads where the person now is. The first page a document opens on keeps the browser's own start
 * (Tab reaches the skip link first). A page still loading is waited for, briefly; a page whose own
 * control has taken focus (a dialog, an autofocus field) keeps it.
 * `pageKey` names the page: a change of it is a page change.
 */
export function useFocusOnPageChange(pageKey: string): void {
  const lastKey = useRef<string | undefined>(undefined);
  useEffect(() => {
    const previous = lastKey.current;
    if (previous === pageKey) return;
    lastKey.current = pageKey;
    if (previous === undefined && !landed && window.location.pathname === landingPath()) {
      landed = true;
      return;
    }
    landed = true;
    const before = document.activeElement;
    let tries = 0;
    let done = false;
    const timer = window.setInterval(() => {
      tries += 1;
      const active = document.activeElement;
      const main = document.getElementById(MAIN_CONTENT_ID);
      // Something inside the new page, or a dialog, took focus by itself: leave it there.
      const claimed = active && active !== before && active !== document.body && (main?.contains(active) || active.closest('[role="dialog"]'));
      const ready = Boolean(main?.querySelector('h1')) || tries >= 20;
      done = Boolean(claimed) || (ready && (focusPageStart() || tries >= 20));
      if (done) window.clearInterval(timer);
    }, 50);
    return () => {
      window.clearInterval(timer);
      // Interrupted (the page changed again at once, or a development double run): the next run tries anew.
      if (!done) lastKey.current = previous;
    };
  }, [pageKey]);
}

/** `useFocusOnPageChange` as an element, for a layout that renders it only once its page can show. */
export function FocusOnPageChange({ pageKey }: { pageKey: string }): null {
  useFocusOnPageChange(pageKey);
  return null;
}
