import { zhCN } from '@mui/material/locale';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { BRAND, brandPalette, FONT_STACK, themeComponents } from '../components/brand.js';
import { currentLanguage } from '../i18n/store-config.js';

/**
 * MUI's own texts (an autocomplete's "No options", "Clear", a pager's range, an alert's "Close") in
 * the page's language; it is fixed for the page's life, as a language switch reloads.
 */
const MUI_TEXTS = currentLanguage() === 'zh-cn' ? zhCN.components : undefined;

/**
 * The back office's look: react-admin's default theme with the BuildAdmin palette made readable (brand.ts),
 * outlined inputs, a grey page behind white cards, and Chinese-friendly system fonts.
 */
function withShell(base: RaThemeOptions, dark: boolean): RaThemeOptions {
  return {
    ...base,
    palette: {
      ...base.palette,
      ...brandPalette(dark),
    },
    shape: { borderRadius: BRAND.borderRadius },
    // Buttons and tabs keep the case they are written in (MUI would put English in capitals), as on the survey pages.
    typography: { ...base.typography, fontFamily: FONT_STACK, button: { textTransform: 'none' } },
    components: {
      ...MUI_TEXTS,
      ...base.components,
      ...themeComponents(dark),
      MuiTextField: {
        ...base.components?.MuiTextField,
        defaultProps: { ...base.components?.MuiTextField?.defaultProps, variant: 'outlined' },
      },
      MuiFormControl: {
        ...base.components?.MuiFormControl,
        defaultProps: { ...base.components?.MuiFormControl?.defaultProps, variant: 'outlined' },
      },
      MuiPaper: {
        ...base.components?.MuiPaper,
        styleOverrides: { ...base.components?.MuiPaper?.styleOverrides, elevation1: { boxShadow: dark ? 'none' : '0 1px 4px rgba(0, 21, 41, 0.06)' } },
      },
      MuiButton: {
        ...base.components?.MuiButton,
        defaultProps: { ...base.components?.MuiButton?.defaultProps, disableElevation: true },
      },
      // With no row selected, react-admin folds the bulk actions' toolbar to no height but leaves its
      // buttons in the Tab order and read out ("0 selected", "Delete"): hidden, they are neither.
      RaBulkActionsToolbar: {
        ...base.components?.RaBulkActionsToolbar,
        styleOverrides: { ...base.components?.RaBulkActionsToolbar?.styleOverrides, root: { '& .RaBulkActionsToolbar-collapsed': { visibility: 'hidden' } } },
      },
    },
  };
}

export const shellLightTheme = withShell(defaultLightTheme, false);
export const shellDarkTheme = withShell(defaultDarkTheme, true);
