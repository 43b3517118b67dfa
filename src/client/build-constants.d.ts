/** The icon packages' versions (`@iconify-json/fa` and `ep`), written in by the build (vite.config.ts); absent outside a Vite build. */
declare const __ICON_SETS_VERSION__: string | undefined;
