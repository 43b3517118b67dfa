import { DEFAULT_ADMIN_ENTRANCE } from '../../contract/headers.js';

/** The back office's route base: every admin page lives under it. */
export const ADMIN_BASE = DEFAULT_ADMIN_ENTRANCE;

/** How long the loading screen lingers (fading) after the shell has taken over, ms. */
export const UNLOADING_DELAY_MS = 1000;
