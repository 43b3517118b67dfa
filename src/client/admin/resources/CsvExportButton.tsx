import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { useState } from 'react';
import { Button, useCanAccess, useDataProvider, useListContext, useResourceContext, useTranslate } from 'react-admin';
import type { DownloadedFile } from '../../http/http-client.js';
import type { ActionDataProvider } from '../../providers/data-provider.js';

/** Hands a downloaded file to the browser, as a link to it would. */
function saveFile(file: DownloadedFile, fallbackName: string): void {
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.fileName || fallbackName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * The list toolbar's CSV export: every row of the list as filtered and sorted now, from the server
 * (`export`, its own permission node). Failures were already shown by the http client.
 */
export function CsvExportButton() {
  const resource = useResourceContext() ?? '';
  const { filterValues, sort, total } = useListContext();
  const { canAccess } = useCanAccess({ resource, action: 'export' });
  const dataProvider = useDataProvider<ActionDataProvider>();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  if (canAccess !== true) return null;
  const run = async () => {
    setBusy(true);
    try {
      saveFile(await dataProvider.exportCsv(resource, { sort, filter: filterValues }), `${resource.replace(/\//g, '-')}.csv`);
    } catch {
      // shown as a toast by the http client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label={translate('generated.list.export')} onClick={() => void run()} disabled={busy || total === 0}>
      <FileDownloadOutlinedIcon />
    </Button>
  );
}
