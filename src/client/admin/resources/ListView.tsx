import { Alert, Box, Button, Card, type SxProps, type Theme } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import { FilterContext, Offline, Title, useListContext, useTranslate } from 'react-admin';
import { lazyComponent } from '../../components/lazy-component.js';
import { QuickSearch } from './QuickSearch.js';

const filterForm = () => import('./filter-form.js');
const FilterForm = lazyComponent(async () => (await filterForm()).FilterForm);

/**
 * Starts fetching the filter form and its inputs: called as "Add filter" is pressed, so the filter
 * picked from its menu is drawn (and focused) as soon as it is shown.
 */
export function preloadFilterForm(): void {
  void filterForm();
  void import('./filter-inputs.js');
}

function isEmptyValue(value: unknown): boolean {
  if (value === '' || value === null || value === undefined) return true;
  if (typeof value === 'object') return Object.values(value).every(isEmptyValue);
  return false;
}

interface ListViewProps {
  /** the placeholder of the quick search (which also names it) */
  quickSearch: string;
  /** the filters offered under "Add filter" */
  filters: ReactElement[];
  actions: ReactNode;
  pagination: ReactNode;
  sx?: SxProps<Theme>;
  children: ReactNode;
}

/**
 * A list page as react-admin's `List` draws it (title, toolbar, the table's card, pagination, and the
 * same `RaList-*` class names), with a quick search of our own: react-admin's filter form, a
 * react-hook-form form, loads only once a filter under "Add filter" is shown or holds a value.
 */
/**
 * What a list shows in place of its rows when their request was refused (the API's GET throttle, a lost
 * connection, a server error) and there are no rows to keep: the refusal's own message and a retry, rather
 * than the table's "No data yet".
 */
function ListRefusal({ error, retrying, retry }: { error: unknown; retrying: boolean; retry: () => void }) {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" disabled={retrying} onClick={retry}>
          {translate('generated.list.retry')}
        </Button>
      }
    >
      {/* the server's message comes translated; a failure without one gets react-admin's own */}
      {error instanceof Error && error.message ? error.message : translate('ra.notification.http_error')}
    </Alert>
  );
}

export function ListView({ quickSearch, filters, actions, pagination, sx, children }: ListViewProps) {
  const { defaultTitle, resource, filterValues, displayedFilters = {}, isPaused, isPending, isPlaceholderData, data, error, isFetching, refetch } = useListContext();
  const offline = isPaused && (isPending || isPlaceholderData);
  // A failed request keeps the rows already shown (react-query keeps them); only one with none to keep is
  // shown as refused, and without the footer, which would count rows the list does not have.
  const refused = !offline && !!error && data == null;
  const filtersShown = filters.some((filter) => {
    const source = (filter.props as { source: string }).source;
    return !!displayedFilters[source] || !isEmptyValue(filterValues[source]);
  });
  return (
    <Box
      className="list-page"
      sx={[
        (theme) => ({
          display: 'flex',
          '& .RaList-main': { flex: '1 1 auto', display: 'flex', flexDirection: 'column' },
          '& .RaList-content': { position: 'relative', overflow: 'inherit', [theme.breakpoints.down('sm')]: { boxShadow: 'none' } },
        }),
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Title defaultTitle={defaultTitle} preferenceKey={`${resource}.list.title`} />
      <div className="RaList-main">
        <FilterContext.Provider value={filters}>
          <Box
            className="RaList-actions"
            sx={(theme) => ({
              display: 'flex',
              position: 'relative',
              justifyContent: 'space-between',
              alignItems: 'flex-end',
              width: '100%',
              [theme.breakpoints.down('md')]: { flexWrap: 'wrap' },
              [theme.breakpoints.down('sm')]: { backgroundColor: (theme.vars ?? theme).palette.background.paper, flexWrap: 'inherit', flexDirection: 'column-reverse' },
            })}
          >
            <Box
              sx={(theme) => ({
                display: 'flex',
                flex: '0 1 auto',
                [theme.breakpoints.down('sm')]: { width: '100%' },
                [theme.breakpoints.up('sm')]: { minHeight: theme.spacing(8) },
                [theme.breakpoints.up('md')]: { flex: '0 1 100%' },
                flexWrap: 'wrap',
                alignItems: 'flex-end',
                pointerEvents: 'none',
                padding: `0 0 ${theme.spacing(0.5)} 0`,
                '& .MuiFormHelperText-root': { display: 'none' },
                '& .RaFilterForm-filterFormInput .MuiFormControl-root': { marginTop: theme.spacing(1) },
                // The filter form's own box gives way: its fields sit beside the quick search.
                '& > form:not([data-source])': { display: 'contents' },
              })}
            >
              <QuickSearch placeholder={quickSearch} />
              {filtersShown && <FilterForm />}
            </Box>
            <span />
            {actions}
          </Box>
        </FilterContext.Provider>
        <Card className="RaList-content">
          {offline ? <Offline /> : refused ? <ListRefusal error={error} retrying={isFetching === true} retry={() => void refetch()} /> : children}
        </Card>
        {!refused && pagination}
      </div>
    </Box>
  );
}

