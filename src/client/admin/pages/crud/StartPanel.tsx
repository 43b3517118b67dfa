import { useEffect, useState } from 'react';
import { Alert, Autocomplete, Box, Button, Card, CardActions, CardContent, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { crudApi, refusalOf } from './crud-api.js';
import { designOf, scratchDesign, type DesignDraft } from './design-model.js';

/** Where a design starts: a new module, or an existing table of the database with its columns (an earlier design starts from the log). */
export function StartPanel({ onStart }: { onStart(design: DesignDraft): void }) {
  const translate = useTranslate();
  const [tables, setTables] = useState<{ table: string; comment: string }[]>();
  const [table, setTable] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    // only the tables a module can be designed from: the server leaves out the platform's and those other schemas own
    crudApi.designableTables().then(setTables, (error: unknown) => setProblem(refusalOf(error).message));
  }, []);
  const fromTable = async () => {
    if (!table) return;
    setProblem(undefined);
    try {
      const parsed = await crudApi.columns(table);
      onStart(designOf('db', { name: table, comment: parsed.comment }, Object.values(parsed.columns), false));
    } catch (error) {
      setProblem(refusalOf(error).message);
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('crud.start.scratch')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('crud.start.scratchHelp')}
          </Typography>
        </CardContent>
        <CardActions>
          <Button variant="contained" onClick={() => onStart(scratchDesign())}>
            {translate('crud.start.scratchButton')}
          </Button>
        </CardActions>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('crud.start.table')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('crud.start.tableHelp')}
          </Typography>
          {tables?.length === 0 ? (
            <Alert severity="info" data-testid="crud-no-tables">
              {translate('crud.start.noTables')}
            </Alert>
          ) : (
            <Autocomplete
              options={(tables ?? []).map((item) => item.table)}
              loading={tables === undefined}
              getOptionLabel={(name) => {
                const comment = tables?.find((item) => item.table === name)?.comment;
                return comment ? `${name} (${comment})` : name;
              }}
              value={table}
              onChange={(_event, value) => setTable(value)}
              renderInput={(params) => <TextField {...params} label={translate('crud.start.tablePick')} helperText={translate('crud.start.tableOwned')} />}
            />
          )}
          {problem && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {problem}
            </Alert>
          )}
        </CardContent>
        <CardActions>
          <Button variant="outlined" disabled={!table} onClick={() => void fromTable()}>
            {translate('crud.start.tableButton')}
          </Button>
        </CardActions>
      </Card>
    </Box>
  );
}
