import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Tab, Tabs } from '@mui/material';
import { useBasename, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { definitionById } from '../../../schemas.js';
import { reloadShell, type ShellBootstrap } from '../../bootstrap-store.js';
import { useSchemaTranslate } from '../../resources/schema-i18n.js';
import { crudApi, refusalOf } from './crud-api.js';
import { Designer } from './Designer.js';
import { designOf, type DesignDraft } from './design-model.js';
import { CrudLog } from './CrudLog.js';
import { StartPanel } from './StartPanel.js';

/**
 * The CRUD generator (menu `crud/crud`): design a module — from nothing, from a table, or from an earlier
 * design in the log — see its list and form as they will be, and make it live. The module is a schema:
 * its menu, nodes and screens appear at once, here and in every open back office.
 */
export function CrudPage({ load }: { load(): Promise<ShellBootstrap> }) {
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const basename = useBasename();
  const [tab, setTab] = useState<'design' | 'log'>('design');
  const [draft, setDraft] = useState<DesignDraft>();
  const [done, setDone] = useState<{ id: string }>();
  const [problem, setProblem] = useState<string>();
  const [logVersion, setLogVersion] = useState(0);

  const generated = async (id: string) => {
    // The new menu and screen, here at once (other back offices follow the server's schema revision).
    await reloadShell(load);
    setDraft(undefined);
    setDone({ id });
    setLogVersion((version) => version + 1);
  };
  const edit = async (id: number) => {
    setProblem(undefined);
    try {
      const start = await crudApi.logStart(id);
      setDraft(designOf('log', start.table, start.fields, true));
      setDone(undefined);
      setTab('design');
    } catch (error) {
      setProblem(refusalOf(error).message);
    }
  };
  const made = done ? definitionById(done.id) : undefined;
  return (
    <Card sx={{ flex: 1 }}>
      <Tabs value={tab} onChange={(_event, value: 'design' | 'log') => setTab(value)} aria-label={translate('crud.title')} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="design" label={translate('crud.tabs.design')} id="crud-tab-design" aria-controls="crud-panel-design" />
        <Tab value="log" label={translate('crud.tabs.log')} id="crud-tab-log" aria-controls="crud-panel-log" />
      </Tabs>
      <CardContent>
        {done && (
          <Alert
            severity="success"
            sx={{ mb: 2 }}
            action={
              made?.menu ? (
                <Button color="inherit" size="small" component={Link} to={`${basename}/${made.menu.name}`}>
                  {translate('crud.done.open')}
                </Button>
              ) : undefined
            }
          >
            {translate('crud.done.live', { name: made ? t(made.title) : done.id })}
          </Alert>
        )}
        {problem && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {problem}
          </Alert>
        )}
        <Box role="tabpanel" id="crud-panel-design" aria-labelledby="crud-tab-design" hidden={tab !== 'design'}>
          {tab === 'design' &&
            (draft ? (
              <Designer key={`${draft.source}:${draft.table.name}:${logVersion}`} initial={draft} onBack={() => setDraft(undefined)} onGenerated={(id) => void generated(id)} />
            ) : (
              <StartPanel onStart={(design) => { setDone(undefined); setDraft(design); }} />
            ))}
        </Box>
        <Box role="tabpanel" id="crud-panel-log" aria-labelledby="crud-tab-log" hidden={tab !== 'log'}>
          {tab === 'log' && <CrudLog version={logVersion} onEdit={(id) => void edit(id)} onChanged={() => { setLogVersion((version) => version + 1); void reloadShell(load); }} />}
        </Box>
      </CardContent>
    </Card>
  );
}
