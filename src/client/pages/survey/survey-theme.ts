import { createTheme, type Theme } from '@mui/material/styles';
import { BRAND, FONT_STACK } from '../../components/brand.js';

/**
 * The standalone survey pages' MUI theme: the product palette without react-admin (which these pages
 * must not load), light or dark as the device prefers.
 */
function surveyTheme(dark: boolean): Theme {
  return createTheme({
    palette: {
      mode: dark ? 'dark' : 'light',
      primary: { main: dark ? BRAND.primary.dark : BRAND.primary.light },
      secondary: { main: dark ? BRAND.secondary.dark : BRAND.secondary.light },
      success: { main: BRAND.success },
      warning: { main: BRAND.warning },
      error: { main: BRAND.error },
      info: { main: BRAND.info },
      background: dark ? { ...BRAND.background.dark } : { ...BRAND.background.light },
    },
    shape: { borderRadius: BRAND.borderRadius },
    typography: { fontFamily: FONT_STACK, button: { textTransform: 'none' } },
    components: { MuiButton: { defaultProps: { disableElevation: true } } },
  });
}

const themes: Partial<Record<'light' | 'dark', Theme>> = {};

/** One theme object per mode, made on first use. */
export function surveyThemeFor(dark: boolean): Theme {
  const mode = dark ? 'dark' : 'light';
  return (themes[mode] ??= surveyTheme(dark));
}
