import { useEffect, useState } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import type { Translate } from '../../../i18n/translate.js';
import { messageOf } from '../../../http/error-body.js';
import { surveyApi, type SurveyApi, type WallEntry } from '../../../pages/survey/survey-api.js';

function goToWall(url: string): void {
  window.location.assign(url);
}

/**
 * "More surveys": one entry per survey wall the member may open (the server lists the enabled walls).
 * Opening one asks the server for the wall's address with the member's wall id, then the browser goes
 * there. Nothing is shown while the site has no walls. Messages come from `common/survey`.
 */
export function WallEntries({ t, api = surveyApi, go = goToWall }: { t: Translate; api?: SurveyApi; go?: (url: string) => void }) {
  const [walls, setWalls] = useState<WallEntry[]>([]);
  const [opening, setOpening] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);

  useEffect(() => {
    let alive = true;
    // A list that cannot be had leaves the surveys page as it is: the walls are an extra.
    api.walls().then((loaded) => alive && setWalls(loaded), () => undefined);
    return () => {
      alive = false;
    };
  }, [api]);

  const open = (code: string) => {
    setOpening(code);
    setFailure(undefined);
    api.wallUrl(code).then(go, (error: unknown) => {
      setFailure(messageOf(error));
      setOpening(undefined);
    });
  };

  if (walls.length === 0) return null;
  return (
    <Box component="section" aria-label={t('survey.walls.title')} sx={{ mb: 2 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {t('survey.walls.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {walls.map((wall) => (
          <Button
            key={wall.code}
            variant="contained"
            size="small"
            disabled={opening !== undefined}
            onClick={() => open(wall.code)}
            // a long wall name wraps on a phone instead of running past the screen
            sx={{ maxWidth: '100%', textAlign: 'left', textTransform: 'none', overflowWrap: 'anywhere' }}
          >
            {opening === wall.code ? t('survey.walls.opening') : t('survey.walls.open', { name: wall.name })}
          </Button>
        ))}
      </Box>
      {failure && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      )}
    </Box>
  );
}
