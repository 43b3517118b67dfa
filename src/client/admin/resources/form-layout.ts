import type { SxProps, Theme } from '@mui/material';

/** Width of the label column of generated forms (BuildAdmin's forms label at the left too). */
const LABEL_WIDTH = '9rem';

/**
 * The inputs of a form, and only them: those whose parent `parent` selects (`SimpleForm`'s `sx` styles its
 * content box, whose stack holds the inputs); inputs nested in a widget keep their own look.
 */
function fieldsOf(parent: string): string[] {
  return [`${parent} > .MuiFormControl-root`, `${parent} > .MuiAutocomplete-root > .MuiFormControl-root`];
}

/** `part` (a selector relative to an input, `&` for the input itself) of every input under `parent`. */
function eachField(parent: string, part: string): string {
  return fieldsOf(parent).map((field) => part.replace('&', field)).join(', ');
}

/**
 * Forms label each input in a column at its left, as BuildAdmin's do, from the `sm` breakpoint up; on a
 * phone the labels stay above the inputs. The inputs keep their own `<label>` or legend (so their
 * accessible names do not change); only where it sits changes. A switch is labelled the same way
 * (SwitchInput). What belongs to an input but is not part of it (a notice under it) is marked
 * `data-field-column` and starts where the inputs do.
 */
function labelColumns(parent: string): SxProps<Theme> {
  return (theme) => ({
    [theme.breakpoints.up('sm')]: {
      [eachField(parent, '&')]: {
        display: 'grid',
        gridTemplateColumns: `${LABEL_WIDTH} minmax(0, 1fr)`,
        columnGap: theme.spacing(2),
        alignItems: 'start',
      },
      [eachField(parent, '& > :is(.MuiInputLabel-root, .MuiFormLabel-root)')]: {
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
      [eachField(parent, '& > :not(.MuiInputLabel-root, .MuiFormLabel-root)')]: { gridColumn: 2 },
      // the label no longer floats over the outline: no gap cut into its top border
      [eachField(parent, '& > .MuiInputBase-root > .MuiOutlinedInput-notchedOutline > legend')]: { maxWidth: 0, padding: 0 },
      [`${parent} > [data-field-column]`]: { marginLeft: `calc(${LABEL_WIDTH} + ${theme.spacing(2)})` },
    },
  });
}

/** The generated forms (`SimpleForm`'s content box). */
export const labelColumnSx: SxProps<Theme> = labelColumns('& > .MuiStack-root');

/** The config screen: each item's input is a child of its `[data-config-item]` box. */
export const configLabelColumnSx: SxProps<Theme> = labelColumns('& [data-config-item]');
