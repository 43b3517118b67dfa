import { useMemo, type ReactNode } from 'react';
import { ColumnsButton, CreateButton, FilterButton, List, Pagination, RefreshButton, TopToolbar, useTranslate } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { CsvExportButton } from './CsvExportButton.js';
import { GeneratedTable } from './GeneratedTable.js';
import { defaultSortOf } from './list-columns.js';
import { filterInputsFor } from './list-filters.js';
import { useSchemaTranslate } from './schema-i18n.js';
import { TreeTable } from './TreeTable.js';

/** BuildAdmin's page sizes (default 10, docs/wire-contract.md#index). */
const PAGE_SIZES = [10, 20, 50, 100];
/** Tree resources are not paginated: the whole tree is one page. */
const TREE_PAGE_SIZE = 10000;

/**
 * The table toolbar (BuildAdmin's): filters, refresh, the column chooser (remembered per resource in the
 * store), CSV export, the resource's own buttons, add. Trees have their expand and collapse in the table.
 */
function ListActions({ creatable, flat, extra }: { creatable: boolean; flat: boolean; extra?: ReactNode }) {
  return (
    <TopToolbar>
      <FilterButton />
      <RefreshButton />
      {flat && <ColumnsButton />}
      {flat && <CsvExportButton />}
      {extra}
      {creatable && <CreateButton />}
    </TopToolbar>
  );
}

interface GeneratedListProps {
  definition: ResourceDefinition;
  /** whether the resource has a create screen (the button also needs `canAccess`) */
  creatable?: boolean;
  editable?: boolean;
  /** replaces the generated table or tree */
  children?: ReactNode;
  /** buttons of the resource's own actions, shown in the toolbar */
  actions?: ReactNode;
}

/**
 * The list screen of a schema: quick search and per-operator filters, the default sort, pagination
 * (none for trees), a flat table or a tree, create / edit / delete only where `canAccess` allows.
 */
export function GeneratedList({ definition, creatable = true, editable = true, children, actions }: GeneratedListProps) {
  const t = useSchemaTranslate();
  const translate = useTranslate();
  const quickSearchText = translate('generated.list.quickSearch', { _: 'Quick search' });
  const filters = useMemo(() => filterInputsFor(definition, t, quickSearchText), [definition, t, quickSearchText]);
  const tree = !!definition.list.tree;
  return (
    <List
      filters={filters}
      sort={defaultSortOf(definition)}
      perPage={tree ? TREE_PAGE_SIZE : PAGE_SIZES[0]}
      pagination={tree ? false : <Pagination rowsPerPageOptions={PAGE_SIZES} />}
      actions={<ListActions creatable={creatable} flat={!tree} extra={actions} />}
      // An empty list keeps its toolbar and search bar; the table says why it is empty (`EmptyRows`).
      empty={false}
      // A wide table scrolls inside the page instead of pushing the toolbar off screen.
      sx={{ minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
    >
      {children ?? (tree ? <TreeTable definition={definition} editable={editable} /> : <GeneratedTable definition={definition} editable={editable} />)}
    </List>
  );
}
