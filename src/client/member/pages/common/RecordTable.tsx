import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Box, List, ListItem, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ValueTags } from '../../../../contract/value-tags.js';
import { messageOf } from '../../../http/error-body.js';
import { CELL_WORDS_SX } from '../../../components/cell-words.js';

export interface RecordColumn<T> {
  key: string;
  label: string;
  /** `tags`: the labels and colours of enum values the answer carries, for chips */
  render(record: T, tags: ValueTags | undefined): ReactNode;
  align?: 'left' | 'right';
}

/** One page of records; an answer may carry its enum values' labels and colours (`tags`). */
interface RecordsPage<T> {
  list: T[];
  total: number;
  tags?: ValueTags;
}

type LoadPage<T> = (page: number, limit: number) => Promise<RecordsPage<T>>;

/**
 * One record on a phone: each column a line of its label and value, so no table runs past the screen.
 */
function RecordCard<T>({ record, columns, tags }: { record: T; columns: RecordColumn<T>[]; tags: ValueTags | undefined }) {
  return (
    <ListItem divider sx={{ display: 'block', px: 0 }}>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(72px, auto) 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
        {columns.map((column) => (
          <Box key={column.key} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {column.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
              {column.render(record, tags)}
            </Typography>
          </Box>
        ))}
      </Box>
    </ListItem>
  );
}

/**
 * One paged list of the member's own records (ledgers, team members): a table (on a phone, a list of
 * cards), its pager and an empty state. `load` changes (a new search, a reload) start again from page 1.
 */
export function RecordTable<T extends { id: number }>({ load, columns, label, empty }: { load: LoadPage<T>; columns: RecordColumn<T>[]; label: string; empty: string }) {
  const translate = useTranslate();
  const narrow = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(15);
  const [data, setData] = useState<RecordsPage<T> | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  useEffect(() => setPage(0), [load]);
  useEffect(() => {
    let alive = true;
    setFailure(undefined);
    load(page + 1, limit).then(
      (loaded) => alive && setData(loaded),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [load, page, limit]);
  if (failure) return <Alert severity="error">{failure}</Alert>;
  if (data && data.total === 0) return <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>{empty}</Typography>;
  return (
    <>
      {narrow ? (
        <List aria-label={label} disablePadding>
          {data?.list.map((record) => <RecordCard key={record.id} record={record} columns={columns} tags={data.tags} />)}
        </List>
      ) : (
        <TableContainer>
          <Table size="small" aria-label={label} sx={{ '& td': CELL_WORDS_SX }}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell key={column.key} align={column.align}>
                    {column.label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data?.list.map((record) => (
                <TableRow key={record.id}>
                  {columns.map((column) => (
                    <TableCell key={column.key} align={column.align}>
                      {column.render(record, data.tags)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <TablePagination
        component="div"
        count={data?.total ?? 0}
        page={page}
        rowsPerPage={limit}
        // a phone has no room for the page-size choice beside the pager
        rowsPerPageOptions={narrow ? [] : [15, 30, 50]}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          setLimit(Number(event.target.value));
          setPage(0);
        }}
        labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
        // The pager's own texts are English: the range and the buttons' names come from the message pack.
        labelDisplayedRows={({ from, to, count }) => translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })}
        getItemAriaLabel={(type) => translate(`ra.navigation.${type}`)}
      />
    </>
  );
}
