import { Box, Button, Card, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';

/** The external address of `/chidaoadminstator/iframe/<encoded url>`; only http(s) pages are shown. */
function iframeUrlOf(pathname: string, base: string): string | undefined {
  const prefix = `${base}/iframe/`;
  if (!pathname.startsWith(prefix)) return undefined;
  let url: string;
  try {
    url = decodeURIComponent(pathname.slice(prefix.length));
  } catch {
    return undefined;
  }
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/** An iframe menu of either area (docs/client.md#routes): the external page inside the shell, with a way to open it on its own. */
export function IframePage({ base }: { base: string }) {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const url = iframeUrlOf(pathname, base);
  if (!url) {
    return (
      <Card sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{translate('pages.iframe.invalid')}</Typography>
      </Card>
    );
  }
  return (
    <Card sx={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 'calc(100vh - 140px)', overflow: 'hidden' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="body2" color="text.secondary" noWrap title={url}>
          {url}
        </Typography>
        <Button size="small" endIcon={<OpenInNewIcon />} href={url} target="_blank" rel="noopener noreferrer">
          {translate('pages.iframe.open')}
        </Button>
      </Box>
      <Box component="iframe" title={url} src={url} sx={{ flex: 1, width: '100%', border: 0, bgcolor: 'background.paper' }} />
    </Card>
  );
}
