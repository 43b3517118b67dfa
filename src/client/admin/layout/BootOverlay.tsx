import { useEffect, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { UNLOADING_DELAY_MS } from '../admin-base.js';

/**
 * The loading screen's last moment: when the shell first appears, a veil in the page colour fades out
 * over the unloading delay (docs/client.md#layout, 1 s), hiding the first paint of menus and page.
 */
export function BootOverlay({ background }: { background: string }) {
  const [gone, setGone] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setGone(true), UNLOADING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  if (gone) return null;
  return (
    <Box
      aria-hidden="true"
      data-testid="boot-overlay"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (theme) => theme.zIndex.modal + 10,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: background,
        pointerEvents: 'none',
        animation: `ba-unload ${UNLOADING_DELAY_MS}ms ease-in forwards`,
        '@keyframes ba-unload': { '0%': { opacity: 1 }, '40%': { opacity: 1 }, '100%': { opacity: 0 } },
      }}
    >
      <CircularProgress size={36} thickness={4} />
    </Box>
  );
}
