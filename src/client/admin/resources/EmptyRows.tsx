import AddIcon from '@mui/icons-material/Add';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import { Button, Stack, Typography } from '@mui/material';
import { useCanAccess, useCreatePath, useListContext, useResourceContext, useResourceDefinition, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

/**
 * What an empty list shows under its toolbar (which stays, search bar included): that nothing matches
 * the search, or that there is nothing yet, with the add button when the admin may add. That button is an
 * ordinary one at every width: react-admin's add button turns into a floating one on narrow screens, and
 * the toolbar's floating add button would then sit exactly on top of it.
 */
export function EmptyRows() {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const createPath = useCreatePath();
  const { hasCreate } = useResourceDefinition();
  const { filterValues } = useListContext();
  const { canAccess } = useCanAccess({ resource, action: 'create' });
  const searching = Object.keys(filterValues ?? {}).length > 0;
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', py: 6, color: 'text.secondary' }}>
      <InboxOutlinedIcon sx={{ fontSize: 48, opacity: 0.6 }} />
      <Typography variant="body2">{searching ? translate('ra.navigation.no_results') : translate('generated.list.empty')}</Typography>
      {!searching && hasCreate && canAccess === true && (
        <Button component={RouterLink} to={createPath({ resource, type: 'create' })} variant="contained" size="small" startIcon={<AddIcon />}>
          {translate('ra.action.create')}
        </Button>
      )}
    </Stack>
  );
}
