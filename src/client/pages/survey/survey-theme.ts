import { createTheme, type Theme } from '@mui/material/styles';
import { BRAND, brandPalette, FONT_STACK, themeComponents } from '../../components/brand.js';

/**
 * The standalone survey pages' MUI theme: the product palette without react-admin (which these pages
 * must not load), light or dark as the member chose in the member centre (`storeConfig_v2.layout.isDark`).
 */
function surveyTheme(dark: boolean): Theme {
  return createTheme({
    palette: brandPalette(dark),
    shape: { borderRadius: BRAND.borderRadius },
    typography: { fontFamily: FONT_STACK, button: { textTransform: 'none' } },
    components: { ...themeComponents(dark), MuiButton: { defaultProps: { disableElevation: true } } },
  });
}

const themes: Partial<Record<'light' | 'dark', Theme>> = {};

/** One theme object per mode, made on first use. */
export function surveyThemeFor(dark: boolean): Theme {
  const mode = dark ? 'dark' : 'light';
  return (themes[mode] ??= surveyTheme(dark));
}
