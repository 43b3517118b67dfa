import { useId, useRef, useState } from 'react';
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, LinearProgress, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import { useLocale, useTranslate } from 'react-admin';
import { useShellState } from '../../bootstrap-store.js';
import { checkUpload } from '../../inputs/upload-check.js';
import { DEFAULT_SITE_CONFIG } from '../../site-config-context.js';
import { descriptionOf, stateChip, stateOf, titleOf, type ModuleInfo } from './module-model.js';
import { refusalOf, storeApi } from './store-api.js';

/**
 * Upload a module's zip: the file goes up with a progress bar, the server checks it before writing
 * anything, and the module comes back waiting to install; the admin installs it now or later.
 */

interface UploadDialogProps {
  onClose(): void;
  /** the module arrived (waiting to install); `install` when the admin chose to install it now */
  onUploaded(module: ModuleInfo, install: boolean): void;
}

export function UploadDialog({ onClose, onUploaded }: UploadDialogProps) {
  const translate = useTranslate();
  const locale = useLocale();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const uploadConfig = useShellState()?.siteConfig.upload ?? DEFAULT_SITE_CONFIG.upload;
  const picker = useRef<HTMLInputElement>(null);
  const progressLabel = useId();
  const [file, setFile] = useState<File>();
  const [percent, setPercent] = useState<number>();
  const [problem, setProblem] = useState<string>();
  const [uploaded, setUploaded] = useState<ModuleInfo>();
  const busy = percent !== undefined && !uploaded && !problem;

  const choose = (chosen: File | undefined) => {
    setProblem(undefined);
    setPercent(undefined);
    if (!chosen) return;
    const refused = checkUpload(chosen, uploadConfig);
    if (refused) {
      setFile(undefined);
      setProblem(translate(`generated.upload.${refused}`));
      return;
    }
    setFile(chosen);
  };

  const send = async () => {
    if (!file) return;
    setProblem(undefined);
    setPercent(0);
    try {
      setUploaded(await storeApi.upload(file, setPercent));
      setPercent(100);
    } catch (error) {
      setProblem(refusalOf(error).message);
      setPercent(undefined);
    }
  };

  const chip = uploaded ? stateChip(stateOf(uploaded)) : undefined;
  return (
    <Dialog open onClose={busy ? undefined : onClose} disableRestoreFocus fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="module-upload-title">
      <DialogTitle id="module-upload-title">{translate('moduleStore.upload.title')}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText>{translate('moduleStore.upload.explain')}</DialogContentText>
        {!uploaded && (
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ mt: 2, gap: 1, alignItems: { sm: 'center' } }}>
            <Button variant="outlined" color="inherit" startIcon={<UploadFileOutlinedIcon />} onClick={() => picker.current?.click()} disabled={busy}>
              {translate('moduleStore.upload.choose')}
            </Button>
            <input ref={picker} type="file" accept=".zip,application/zip" hidden aria-label={translate('moduleStore.upload.choose')} onChange={(event) => choose(event.target.files?.[0])} />
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {file ? file.name : translate('moduleStore.upload.none')}
            </Typography>
          </Stack>
        )}
        {percent !== undefined && (
          <Box sx={{ mt: 2 }}>
            <Typography id={progressLabel} variant="body2">
              {translate(uploaded ? 'moduleStore.upload.checked' : percent < 100 ? 'moduleStore.upload.sending' : 'moduleStore.upload.checking', { percent })}
            </Typography>
            <LinearProgress variant="determinate" value={percent} aria-labelledby={progressLabel} sx={{ mt: 1, height: 8, borderRadius: 4 }} />
          </Box>
        )}
        {uploaded && chip && (
          <Box sx={{ mt: 2 }} role="status">
            <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                {titleOf(uploaded, locale)}
              </Typography>
              {(uploaded.newVersion || uploaded.version) && <Typography variant="body2" color="text.secondary">{translate('moduleStore.version', { version: uploaded.newVersion || uploaded.version })}</Typography>}
              <Chip size="small" color={chip.color} label={translate(`moduleStore.states.${chip.key}`)} />
            </Stack>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {descriptionOf(uploaded, locale)}
            </Typography>
          </Box>
        )}
        {problem && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {problem}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {uploaded ? (
          <>
            <Button color="inherit" onClick={() => onUploaded(uploaded, false)}>
              {translate('moduleStore.upload.later')}
            </Button>
            <Button variant="contained" onClick={() => onUploaded(uploaded, true)}>
              {translate('moduleStore.upload.installNow')}
            </Button>
          </>
        ) : (
          <>
            <Button color="inherit" onClick={onClose} disabled={busy}>
              {translate('ra.action.cancel')}
            </Button>
            <Button variant="contained" onClick={() => void send()} disabled={!file || busy}>
              {translate('moduleStore.upload.send')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
