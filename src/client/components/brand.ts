/**
 * The product's colours and font stack (the BuildAdmin palette), shared by the back office's
 * react-admin theme and the standalone pages' MUI theme so both read alike.
 */
export const FONT_STACK = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  '"Helvetica Neue"',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  'Arial',
  'sans-serif',
].join(',');

export const BRAND = {
  primary: { light: '#409eff', dark: '#3375b9' },
  secondary: { light: '#337ecc', dark: '#5a9cf8' },
  success: '#67c23a',
  warning: '#e6a23c',
  error: '#f56c6c',
  info: '#909399',
  background: {
    light: { default: '#f5f5f5', paper: '#ffffff' },
    dark: { default: '#141414', paper: '#1d1e1f' },
  },
  borderRadius: 6,
} as const;

/** The MUI palette of the brand, light or dark: the one both themes spread. */
export function brandPalette(dark: boolean) {
  return {
    mode: dark ? ('dark' as const) : ('light' as const),
    primary: { main: dark ? BRAND.primary.dark : BRAND.primary.light },
    secondary: { main: dark ? BRAND.secondary.dark : BRAND.secondary.light },
    success: { main: BRAND.success },
    warning: { main: BRAND.warning },
    error: { main: BRAND.error },
    info: { main: BRAND.info },
    background: dark ? { ...BRAND.background.dark } : { ...BRAND.background.light },
  };
}
