import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useLocale, useTranslate } from 'react-admin';
import { reloadShell, useShellState, type ShellBootstrap } from '../../bootstrap-store.js';
import { ActionDialog } from './ActionDialog.js';
import { actionsOf, descriptionOf, moduleText, stateChip, stateOf, titleOf, type ModuleAction, type ModuleInfo } from './module-model.js';
import { refusalOf, storeApi } from './store-api.js';
import { UploadDialog } from './UploadDialog.js';

/**
 * The module store (menu `moduleStore/moduleStore`, BuildAdmin's `/src/views/backend/module/index.vue`):
 * the catalogue's modules and uploaded ones with their states; upload a zip, install, disable, enable and
 * uninstall, each confirmed in a dialog. An install's menus appear at once (the shell's menus are
 * loaded again; other back offices follow the schema revision). Only super admins use it.
 */

type OpenDialog = { kind: 'upload' } | { kind: 'action'; module: ModuleInfo; action: ModuleAction };

/** Where focus goes when a dialog closes: the button that opened it, or its module's first action if that button has gone. */
interface Opener {
  element?: HTMLElement | null;
  uid?: string;
}

export function ModuleStorePage({ load }: { load(): Promise<ShellBootstrap> }) {
  const translate = useTranslate();
  const locale = useLocale();
  const isSuper = useShellState()?.adminInfo.super === true;
  const [modules, setModules] = useState<ModuleInfo[]>();
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const [dialog, setDialog] = useState<OpenDialog>();
  const opener = useRef<Opener>({});
  const uploadButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [focusBack, setFocusBack] = useState(0);

  const refresh = useCallback(async () => {
    try {
      setModules(await storeApi.list());
      setProblem(undefined);
    } catch (error) {
      setProblem(refusalOf(error).message);
    }
  }, []);

  useEffect(() => {
    if (isSuper) void refresh();
  }, [isSuper, refresh]);

  // After a dialog closed and the list it changed is drawn: focus back where the admin was.
  useEffect(() => {
    if (focusBack === 0) return;
    const { element, uid } = opener.current;
    const row = uid ? [...(list.current?.children ?? [])].find((item) => item instanceof HTMLElement && item.dataset.module === uid) : undefined;
    const target = element?.isConnected ? element : (row?.querySelector('button') ?? uploadButton.current);
    target?.focus();
  }, [focusBack]);

  const open = (next: OpenDialog, from: HTMLElement, uid?: string) => {
    opener.current = { element: from, uid };
    setDone(undefined);
    setDialog(next);
  };
  const close = () => {
    setDialog(undefined);
    setFocusBack((count) => count + 1);
  };
  const finished = async (module: ModuleInfo, action: ModuleAction) => {
    // The menus an install or enable adds (or a disable hides) show here at once.
    await Promise.all([refresh(), reloadShell(load)]);
    setDone(translate(`moduleStore.done.${action === 'install' && module.newVersion ? 'upgrade' : action}`, { name: titleOf(module, locale), version: module.newVersion ?? '' }));
    close();
  };
  const uploaded = (module: ModuleInfo, install: boolean) => {
    void refresh();
    opener.current = { element: uploadButton.current, uid: module.uid };
    if (install) setDialog({ kind: 'action', module, action: 'install' });
    else close();
  };

  if (!isSuper) {
    return (
      <Card sx={{ flex: 1 }}>
        <CardContent>
          <Alert severity="warning">{translate('moduleStore.superOnly')}</Alert>
        </CardContent>
      </Card>
    );
  }

  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5, alignItems: { sm: 'center' } }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="h6" component="h2">
                {translate('moduleStore.title')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate('moduleStore.intro')}
              </Typography>
            </Box>
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
              <Button ref={uploadButton} variant="contained" startIcon={<CloudUploadOutlinedIcon />} onClick={(event) => open({ kind: 'upload' }, event.currentTarget)}>
                {translate('moduleStore.upload.button')}
              </Button>
              <Button variant="outlined" color="inherit" startIcon={<RefreshIcon />} onClick={() => void refresh()}>
                {translate('moduleStore.refresh')}
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      {done && (
        <Alert severity="success" role="status" sx={{ mb: 2 }} onClose={() => setDone(undefined)} slotProps={{ closeButton: { title: translate('ra.action.close') } }}>
          {done}
        </Alert>
      )}
      {problem && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {problem}
        </Alert>
      )}
      {!modules && !problem && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={translate('moduleStore.loading')} />
        </Box>
      )}
      {modules && modules.length === 0 && <Typography color="text.secondary">{translate('moduleStore.empty')}</Typography>}
      {modules && modules.length > 0 && (
        <Box
          component="ul"
          ref={list}
          aria-label={translate('moduleStore.listLabel')}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' } }}
        >
          {modules.map((module) => (
            <ModuleCard key={module.uid} module={module} onAction={(action, from) => open({ kind: 'action', module, action }, from, module.uid)} />
          ))}
        </Box>
      )}
      {dialog?.kind === 'upload' && <UploadDialog onClose={close} onUploaded={uploaded} />}
      {dialog?.kind === 'action' && <ActionDialog key={`${dialog.module.uid}:${dialog.action}`} module={dialog.module} action={dialog.action} onClose={close} onDone={finished} />}
    </Box>
  );
}

function ModuleCard({ module, onAction }: { module: ModuleInfo; onAction(action: ModuleAction, from: HTMLElement): void }) {
  const translate = useTranslate();
  const locale = useLocale();
  const state = stateOf(module);
  const chip = stateChip(state);
  const title = titleOf(module, locale);
  const author = moduleText(module.author, locale);
  const headingId = `module-${module.uid}-title`;
  return (
    <Box component="li" data-module={module.uid} sx={{ minWidth: 0 }}>
      <Card variant="outlined" component="article" aria-labelledby={headingId} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
        <CardContent sx={{ flex: 1 }}>
          <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start', justifyContent: 'space-between' }}>
            <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
              {title}
            </Typography>
            <Chip size="small" color={chip.color} label={translate(`moduleStore.states.${chip.key}`)} />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {[
              module.version ? translate('moduleStore.version', { version: module.version }) : '',
              author ? translate('moduleStore.author', { author }) : '',
              module.source === 'catalogue' || module.source === 'upload' ? translate(`moduleStore.sources.${module.source}`) : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
          <Typography variant="body2" sx={{ mt: 1.5 }}>
            {descriptionOf(module, locale)}
          </Typography>
          {module.newVersion && (
            <Typography variant="body2" color="info.main" sx={{ mt: 1 }}>
              {translate('moduleStore.newVersion', { version: module.newVersion })}
            </Typography>
          )}
          {Array.isArray(module.keptTables) && module.keptTables.length > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1, wordBreak: 'break-word' }}>
              {translate('moduleStore.keptTables', { tables: module.keptTables.join(', ') })}
            </Typography>
          )}
          {Array.isArray(module.requires) && module.requires.length > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {translate('moduleStore.requires', { names: module.requires.join(', ') })}
            </Typography>
          )}
        </CardContent>
        {actionsOf(state).length > 0 && (
          <CardActions sx={{ flexWrap: 'wrap', gap: 1, px: 2, pb: 2 }}>
            {actionsOf(state).map((action) => (
              <Button
                key={action}
                size="small"
                variant={action === 'install' || action === 'enable' ? 'contained' : 'outlined'}
                color={action === 'install' || action === 'enable' ? 'primary' : 'inherit'}
                aria-label={`${translate(`moduleStore.actions.${action}`)}: ${title}`}
                onClick={(event) => onAction(action, event.currentTarget)}
                sx={{ ml: '0 !important' }}
              >
                {translate(`moduleStore.actions.${action}`)}
              </Button>
            ))}
          </CardActions>
        )}
      </Card>
    </Box>
  );
}
