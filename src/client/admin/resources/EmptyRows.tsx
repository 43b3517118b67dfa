import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import { Stack, Typography } from '@mui/material';
import { CreateButton, useCanAccess, useListContext, useResourceContext, useResourceDefinition, useTranslate } from 'react-admin';

/**
 * What an empty list shows under its toolbar (which stays, search bar included): that nothing matches
 * the search, or that there is nothing yet, with the add button when the admin may add.
 */
export function EmptyRows() {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const { hasCreate } = useResourceDefinition();
  const { filterValues } = useListContext();
  const { canAccess } = useCanAccess({ resource, action: 'create' });
  const searching = Object.keys(filterValues ?? {}).length > 0;
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', py: 6, color: 'text.secondary' }}>
      <InboxOutlinedIcon sx={{ fontSize: 48, opacity: 0.6 }} />
      <Typography variant="body2">{searching ? translate('ra.navigation.no_results') : translate('generated.list.empty')}</Typography>
      {!searching && hasCreate && canAccess === true && <CreateButton variant="contained" />}
    </Stack>
  );
}
