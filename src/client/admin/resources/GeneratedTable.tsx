import { DataTable, useCanAccess, useResourceContext, useTranslate } from 'react-admin';
import { NamedBulkDeleteButton } from './DeleteButtons.js';
import type { ReactNode } from 'react';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { CELL_WORDS_SX } from '../../components/cell-words.js';
import { fieldFor } from '../fields/field-for.js';
import { BulkEditButton } from './BulkEditButton.js';
import { DragHandle, DragSortBody, DragSortContext, useDragSortController } from './drag-sort.js';
import { EmptyRows } from './EmptyRows.js';
import { isSortable, listColumnsOf, representationFieldOf, widthOf } from './list-columns.js';
import type { DetailRenderers } from './RecordDetails.js';
import { ROW_ACTIONS_CELL_SX, RowActions } from './RowActions.js';
import { useSchemaTranslate } from './schema-i18n.js';

/**
 * A flat list: one column per list field with its renderer, sortable where the server can order,
 * row selection with bulk delete and a drag handle (weigh) only for admins holding those nodes; an
 * override may add its own row and bulk buttons. Each row's actions come first, after its checkbox (and
 * drag handle), so that they are in view at any width, however far the other columns scroll.
 */
interface GeneratedTableProps {
  definition: ResourceDefinition;
  editable?: boolean;
  /** a resource's own buttons in each row, before edit and delete */
  rowActions?: ReactNode;
  /** a resource's own buttons for the selected rows, before bulk delete (pass them only when allowed) */
  bulkActions?: ReactNode;
  /** fields the resource draws itself in a row's details */
  details?: DetailRenderers;
}

/**
 * Columns as narrow as their content allows, so that a list of many columns fits a desktop screen: long
 * titles wrap between words (a Chinese title at its punctuation, never inside a word), cells keep a
 * small padding. On a phone, where a list of several columns scrolls sideways whatever its titles do,
 * titles keep to one line: a far column's title wrapped onto three lines would make the header row tall
 * and leave an empty band above the titles in view. A table wider than the page still scrolls sideways
 * inside its own wrapper, not the list's card: the bulk actions' toolbar is drawn above the card, over
 * the list's buttons, and a card that scrolled would cut it off. Body cells wrap between words too
 * (`CELL_WORDS_SX`).
 */
const LIST_TABLE_SX = {
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
  '& .RaDataTable-headerCell': { whiteSpace: { xs: 'nowrap', sm: 'normal' }, wordBreak: 'keep-all', verticalAlign: 'bottom' },
  '& .RaDataTable-rowCell': CELL_WORDS_SX,
  '& .MuiTableCell-sizeSmall': { px: 0.5 },
} as const;

/**
 * The list's columns in schema order, except the row's status, which sits beside the row's name: a list
 * wider than the screen then still shows what state each row is in before any sideways scroll.
 */
function displayColumnsOf(definition: ResourceDefinition): FieldDefinition[] {
  const columns = listColumnsOf(definition);
  const status = columns.find((field) => field.name === 'status' && field.enum);
  if (!status) return columns;
  const others = columns.filter((field) => field !== status);
  const name = others.findIndex((field) => field.name === representationFieldOf(definition));
  return name < 0 ? columns : [...others.slice(0, name + 1), status, ...others.slice(name + 1)];
}

export function GeneratedTable({ definition, editable = true, rowActions, bulkActions, details }: GeneratedTableProps) {
  const resource = useResourceContext() ?? '';
  const t = useSchemaTranslate();
  const translate = useTranslate();
  const { canAccess: canDelete } = useCanAccess({ resource, action: 'delete' });
  const { canAccess: canSort } = useCanAccess({ resource, action: 'sortable' });
  const { canAccess: canEdit } = useCanAccess({ resource, action: 'edit' });
  const bulkEditable = editable && canEdit === true;
  const controller = useDragSortController(resource);
  const draggable = !!definition.list.weighField && canSort === true;

  return (
    <DragSortContext.Provider value={draggable ? controller : undefined}>
      <DataTable
        rowClick={false}
        bulkActionButtons={
          canDelete === true || bulkEditable || bulkActions ? (
            <>
              {bulkActions}
              {bulkEditable && <BulkEditButton definition={definition} />}
              {canDelete === true && <NamedBulkDeleteButton title={definition.title} />}
            </>
          ) : (
            false
          )
        }
        body={draggable ? DragSortBody : undefined}
        empty={<EmptyRows />}
        hiddenColumns={displayColumnsOf(definition).filter((field) => field.ui.list === 'optional').map((field) => field.name)}
        sx={LIST_TABLE_SX}
      >
        {draggable && (
          <DataTable.Col label="" disableSort>
            <DragHandle />
          </DataTable.Col>
        )}
        <DataTable.Col label={translate('generated.list.operate')} disableSort sx={ROW_ACTIONS_CELL_SX}>
          <RowActions editable={editable} definition={definition} details={details}>
            {rowActions}
          </RowActions>
        </DataTable.Col>
        {displayColumnsOf(definition).map((field) => (
          <DataTable.Col
            key={field.name}
            source={field.name}
            label={t(field.title)}
            disableSort={!isSortable(definition, field)}
            cellSx={widthOf(field) ? () => ({ width: widthOf(field) }) : undefined}
          >
            {fieldFor(field, definition)}
          </DataTable.Col>
        ))}
      </DataTable>
    </DragSortContext.Provider>
  );
}
