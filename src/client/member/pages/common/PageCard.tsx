import type { ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';
import { useDocumentTitle } from '../../../components/document-title.js';
import { useMemberBootstrap } from '../../shell/member-bootstrap.js';

/** A member page: its heading (also the browser title with the site name) above its content. */
export function PageCard({ title, children, maxWidth }: { title: string; children: ReactNode; maxWidth?: number }) {
  const siteName = useMemberBootstrap()?.site.siteName;
  useDocumentTitle(title, siteName);
  return (
    <Card sx={{ maxWidth, mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
