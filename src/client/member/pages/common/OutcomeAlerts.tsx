import { Alert } from '@mui/material';

/**
 * What the member's last request on a form came to, above the form: the server's message when it went
 * through (announced politely as a status), or why it did not. Either is left out while empty.
 */
export function OutcomeAlerts({ notice, failure }: { notice?: string; failure?: string }) {
  return (
    <>
      {notice && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
    </>
  );
}
