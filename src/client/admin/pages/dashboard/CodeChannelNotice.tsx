import { Alert, AlertTitle, Button } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useBasename, useI18nProvider, useTranslate } from 'react-admin';
import type { CodeChannelHealth } from '../../../../contract/code-channels.js';
import type { AppI18nProvider } from '../../../providers/i18n-provider.js';
import { useMessageFiles } from '../../../shell/RouteMessages.js';

/** The settings screen, where mail is set up and both channels are tested (below the back office's base). */
const SETTINGS_PATH = 'routine/config';

export interface CodeChannelWarning {
  channels: CodeChannelHealth[];
  registerWithoutCode: boolean;
}

/**
 * The dashboard's notice while no verification code can reach a member (`codeChannels` of
 * `Dashboard/index`, docs/wire-contract.md#dashboard): each channel's state in the settings screen's words, what members
 * can do meanwhile (register without a code, or not at all), and the way to the settings.
 */
export function CodeChannelNotice({ warning }: { warning: CodeChannelWarning }) {
  const translate = useTranslate();
  const basename = useBasename();
  // the channels' names and states are the settings screen's
  const ready = useMessageFiles(useI18nProvider() as Partial<AppI18nProvider>, ['admin/config']);
  if (!ready) return null;
  const states = warning.channels
    .map((health) => translate('dashboard.codeChannels.channel', { name: translate(`config.channels.name.${health.channel}`), state: translate(`config.channels.state.${health.state}`) }))
    .join(translate('dashboard.codeChannels.separator'));
  return (
    <Alert
      severity="warning"
      data-testid="code-channel-notice"
      action={
        <Button component={RouterLink} to={`${basename}/${SETTINGS_PATH}`} color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }}>
          {translate('dashboard.codeChannels.open')}
        </Button>
      }
      // on a phone the link goes under the text, which keeps its place beside the icon
      sx={{
        flexWrap: { xs: 'wrap', sm: 'nowrap' },
        '& .MuiAlert-message': { flex: '1 1 0', minWidth: 0 },
        '& .MuiAlert-action': { flexBasis: { xs: '100%', sm: 'auto' }, pl: { xs: 4.5, sm: 2 }, pt: { xs: 0, sm: 0.5 }, ml: { xs: 0, sm: 'auto' } },
      }}
    >
      <AlertTitle>{translate('dashboard.codeChannels.title')}</AlertTitle>
      {translate(warning.registerWithoutCode ? 'dashboard.codeChannels.withoutCode' : 'dashboard.codeChannels.closed')} {translate('dashboard.codeChannels.states', { states })}
    </Alert>
  );
}
