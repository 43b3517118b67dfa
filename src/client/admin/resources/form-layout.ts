import type { SxProps, Theme } from '@mui/material';

/** Width of the label column of generated forms (BuildAdmin's forms label at the left too). */
const LABEL_WIDTH = '9rem';

/**
 * The inputs of a form, and only them (`SimpleForm`'s `sx` styles its content box, whose stack holds the
 * inputs): inputs nested in a widget keep their own look.
 */
const FIELDS = ['& > .MuiStack-root > .MuiFormControl-root', '& > .MuiStack-root > .MuiAutocomplete-root > .MuiFormControl-root'];

/** `part` (a selector relative to an input, `&` for the input itself) of every form input. */
function eachField(part: string): string {
  return FIELDS.map((field) => part.replace('&', field)).join(', ');
}

/**
 * Generated forms label each input in a column at its left, as BuildAdmin's do, from the `sm`
 * breakpoint up; on a phone the labels stay above the inputs. The inputs keep their own `<label>` (so
 * their accessible names do not change); only where it sits changes. Widgets without a label of their
 * own (a switch labelled at its right) line up with the inputs.
 */
export const labelColumnSx: SxProps<Theme> = (theme) => ({
  [theme.breakpoints.up('sm')]: {
    [eachField('&')]: {
      display: 'grid',
      gridTemplateColumns: `${LABEL_WIDTH} minmax(0, 1fr)`,
      columnGap: theme.spacing(2),
      alignItems: 'start',
    },
    [eachField('& > :is(.MuiInputLabel-root, .MuiFormLabel-root)')]: {
      gridColumn: 1,
      // A radio or checkbox group's label is its fieldset's legend, which a browser draws in the border
      // (aligned by its text-align: at the far right) unless floated: floated, it is a grid item as the others.
      float: 'left',
      position: 'static',
      transform: 'none',
      maxWidth: 'none',
      whiteSpace: 'normal',
      overflowWrap: 'anywhere',
      textAlign: 'right',
      lineHeight: 1.4,
      // the middle of a small outlined input's first line
      paddingTop: '9px',
      fontSize: theme.typography.body2.fontSize,
      color: theme.palette.text.secondary,
    },
    [eachField('& > :not(.MuiInputLabel-root, .MuiFormLabel-root)')]: { gridColumn: 2 },
    // the label no longer floats over the outline: no gap cut into its top border
    [eachField('& > .MuiInputBase-root > .MuiOutlinedInput-notchedOutline > legend')]: { maxWidth: 0, padding: 0 },
    '& > .MuiStack-root > .MuiFormGroup-root': { paddingLeft: `calc(${LABEL_WIDTH} + ${theme.spacing(2)})` },
  },
});
