import { useMemo, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { ColumnsButton, CreateButton, FilterButton, ListBase, Loading, Pagination, RefreshButton, TopToolbar, useTranslate, type SortPayload } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { CsvExportButton } from './CsvExportButton.js';
import { GeneratedTable } from './GeneratedTable.js';
import { defaultSortOf } from './list-columns.js';
import { filterInputsFor, quickSearchPlaceholder } from './list-filters.js';
import { ListView, preloadFilterForm } from './ListView.js';
import { ROW_CHECKS } from './row-checks.js';
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
      {/* Pressing "Add filter" starts fetching the filter form, so the filter picked is drawn at once. */}
      <Box component="span" sx={{ display: 'contents' }} onPointerDown={preloadFilterForm} onFocus={preloadFilterForm}>
        <FilterButton />
      </Box>
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
 * What a generated list asks for when it opens with nothing chosen yet (no stored sort, filter or
 * page): its first page in the schema's default order. The shell can fetch it ahead from this.
 */
export function firstPageQuery(definition: ResourceDefinition): { pagination: { page: number; perPage: number }; sort: SortPayload; filter: Record<string, never> } {
  return { pagination: { page: 1, perPage: definition.list.tree ? TREE_PAGE_SIZE : PAGE_SIZES[0] }, sort: defaultSortOf(definition), filter: {} };
}

/**
 * What the generated list screen asks `canAccess` about once drawn: its toolbar's and table's buttons
 * (of the resource) and each row's buttons (of the row). Fetched ahead with the first page, so the
 * buttons are drawn with the rows; tests/ui/resources/list-ahead.test.tsx fails when a check is missing.
 */
export const LIST_SCREEN_CHECKS = { resource: ['create', 'edit', 'delete', 'sortable', 'export'], row: ROW_CHECKS } as const;

/**
 * The list screen of a schema: quick search and per-operator filters, the default sort, pagination
 * (none for trees), a flat table or a tree, create / edit / delete only where `canAccess` allows.
 */
export function GeneratedList({ definition, creatable = true, editable = true, children, actions }: GeneratedListProps) {
  const t = useSchemaTranslate();
  const translate = useTranslate();
  const quickSearchText = translate('generated.list.quickSearch');
  const filters = useMemo(() => filterInputsFor(definition, t), [definition, t]);
  const quickSearch = quickSearchPlaceholder(definition, t, quickSearchText);
  const tree = !!definition.list.tree;
  const first = firstPageQuery(definition);
  return (
    <ListBase sort={first.sort} perPage={first.pagination.perPage} authLoading={<Loading />}>
      <ListView
        quickSearch={quickSearch}
        filters={filters}
        pagination={tree ? null : <Pagination rowsPerPageOptions={PAGE_SIZES} />}
        actions={<ListActions creatable={creatable} flat={!tree} extra={actions} />}
        // A wide table scrolls inside the page instead of pushing the toolbar off screen (the table's own wrapper scrolls).
        sx={{ minWidth: 0, '& .RaList-main': { minWidth: 0 } }}
      >
        {/* An empty list keeps its toolbar and search bar; the table says why it is empty (`EmptyRows`). */}
        {children ?? (tree ? <TreeTable definition={definition} editable={editable} /> : <GeneratedTable definition={definition} editable={editable} />)}
      </ListView>
    </ListBase>
  );
}
