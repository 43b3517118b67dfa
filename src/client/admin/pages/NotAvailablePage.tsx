import { Box, Card, CardContent, Typography } from '@mui/material';
import ConstructionOutlinedIcon from '@mui/icons-material/ConstructionOutlined';
import { useTranslate } from 'react-admin';
import { useMenuTitle } from '../layout/use-shell-navigation.js';

/**
 * Menu pages this edition does not ship (a component key the client does not know): the menu entry
 * stays, the page says so plainly.
 */
export function NotAvailablePage({ name, title }: { name: string; title: string }) {
  const translate = useTranslate();
  const menuTitle = useMenuTitle();
  return (
    <Card sx={{ flex: 1, display: 'flex' }}>
      <CardContent sx={{ m: 'auto', textAlign: 'center', py: 8, maxWidth: 520 }}>
        <Box sx={{ display: 'inline-flex', p: 2, mb: 2, borderRadius: '50%', bgcolor: 'action.hover', color: 'warning.main' }}>
          <ConstructionOutlinedIcon sx={{ fontSize: 44 }} />
        </Box>
        <Typography variant="h6" component="h2" gutterBottom>
          {menuTitle({ key: name, title })}
        </Typography>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }} gutterBottom>
          {translate('shell.notAvailable.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('shell.notAvailable.description')}
        </Typography>
      </CardContent>
    </Card>
  );
}
