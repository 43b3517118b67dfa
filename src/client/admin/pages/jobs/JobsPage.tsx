import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import { httpClient } from '../../../http/index.js';
import { refusalOf } from '../crud/crud-api.js';

/**
 * The background jobs (menu `routine/jobs`): each job's schedule, last run (when, how long, how it ended),
 * next run and failures; super admins may run one now (the server refuses anyone else and runs a job once
 * for clicks that come together).
 */

interface JobRow {
  name: string;
  title: string;
  every_seconds: number;
  last_run: string;
  last_trigger: string;
  last_outcome: '' | 'running' | 'succeeded' | 'failed' | 'interrupted';
  last_duration_ms: number | null;
  next_run: string;
  failures: number;
  last_error: string;
}

const JOBS = '/admin/routine.Jobs/';

const OUTCOME_COLORS = { running: 'info', succeeded: 'success', failed: 'error', interrupted: 'warning' } as const;

export function JobsPage() {
  const translate = useTranslate();
  const [jobs, setJobs] = useState<JobRow[]>();
  const [canRun, setCanRun] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<{ severity: 'success' | 'warning'; text: string }>();
  const [starting, setStarting] = useState<string>();

  const refresh = useCallback(async () => {
    try {
      const { data } = await httpClient.request<{ list: JobRow[]; can_run: boolean }>(`${JOBS}index`, { area: 'admin', showErrorMessage: false });
      setJobs(data.list);
      setCanRun(data.can_run);
      setProblem(undefined);
    } catch (error) {
      setProblem(refusalOf(error).message);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // While a run is under way, its end shows without a click.
  useEffect(() => {
    if (!jobs?.some((job) => job.last_outcome === 'running')) return;
    const timer = window.setTimeout(() => void refresh(), 2000);
    return () => window.clearTimeout(timer);
  }, [jobs, refresh]);

  const runNow = async (job: JobRow) => {
    setStarting(job.name);
    setNotice(undefined);
    try {
      const answer = await httpClient.request(`${JOBS}run`, { area: 'admin', method: 'POST', data: { name: job.name }, showErrorMessage: false });
      setNotice({ severity: 'success', text: `${job.title}: ${answer.msg}` });
    } catch (error) {
      setNotice({ severity: 'warning', text: `${job.title}: ${refusalOf(error).message}` });
    } finally {
      setStarting(undefined);
      window.setTimeout(() => void refresh(), 800);
    }
  };

  const schedule = (seconds: number) =>
    seconds % 3600 === 0 ? translate('jobs.everyHours', { smart_count: seconds / 3600 }) : seconds % 60 === 0 ? translate('jobs.everyMinutes', { smart_count: seconds / 60 }) : translate('jobs.everySeconds', { smart_count: seconds });
  const duration = (ms: number | null) => (ms === null ? translate('jobs.never') : ms < 1000 ? translate('jobs.milliseconds', { count: ms }) : translate('jobs.seconds', { count: (ms / 1000).toFixed(1) }));

  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5, alignItems: { sm: 'center' } }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="h6" component="h2">
                {translate('jobs.title')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate('jobs.intro')}
              </Typography>
            </Box>
            <Button variant="outlined" color="inherit" startIcon={<RefreshIcon />} onClick={() => void refresh()} sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}>
              {translate('jobs.refresh')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
      <Box role="status" aria-live="polite">
        {notice && (
          <Alert severity={notice.severity} sx={{ mb: 2 }} onClose={() => setNotice(undefined)} slotProps={{ closeButton: { title: translate('ra.action.close') } }}>
            {notice.text}
          </Alert>
        )}
      </Box>
      {problem && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {problem}
        </Alert>
      )}
      {!jobs && !problem && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={translate('jobs.loading')} />
        </Box>
      )}
      {jobs && (
        <Box component="ul" aria-label={translate('jobs.listLabel')} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
          {jobs.map((job) => {
            const headingId = `job-${job.name}-title`;
            const facts: [string, string][] = [
              [translate('jobs.schedule'), schedule(job.every_seconds)],
              [translate('jobs.lastRun'), job.last_run ? `${job.last_run}${job.last_trigger === 'manual' ? ` (${translate('jobs.manual')})` : ''}` : translate('jobs.never')],
              [translate('jobs.duration'), duration(job.last_duration_ms)],
              [translate('jobs.nextRun'), job.next_run],
              [translate('jobs.failures'), String(job.failures)],
            ];
            return (
              <Box component="li" key={job.name} sx={{ minWidth: 0 }}>
                <Card variant="outlined" component="article" aria-labelledby={headingId} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
                  <CardContent sx={{ flex: 1 }}>
                    <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start', justifyContent: 'space-between' }}>
                      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
                        {job.title}
                      </Typography>
                      <Chip size="small" variant="outlined" color={job.last_outcome ? OUTCOME_COLORS[job.last_outcome] : 'default'} label={translate(`jobs.outcomes.${job.last_outcome || 'none'}`)} />
                    </Stack>
                    <Box component="dl" sx={{ m: 0, mt: 1.5, display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 2, rowGap: 0.5 }}>
                      {facts.map(([term, value]) => (
                        <Box key={term} sx={{ display: 'contents' }}>
                          <Typography component="dt" variant="body2" color="text.secondary">
                            {term}
                          </Typography>
                          <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
                            {value}
                          </Typography>
                        </Box>
                      ))}
                    </Box>
                    {job.last_error && (
                      <Typography variant="body2" color="error" sx={{ mt: 1.5, wordBreak: 'break-word' }}>
                        {translate('jobs.lastError', { error: job.last_error })}
                      </Typography>
                    )}
                  </CardContent>
                  {canRun && (
                    <CardActions sx={{ px: 2, pb: 2 }}>
                      <Button
                        variant="contained"
                        size="small"
                        startIcon={starting === job.name ? <CircularProgress size={16} color="inherit" aria-hidden /> : <PlayArrowIcon />}
                        disabled={starting === job.name || job.last_outcome === 'running'}
                        aria-label={translate('jobs.runNowOf', { title: job.title })}
                        onClick={() => void runNow(job)}
                      >
                        {translate('jobs.runNow')}
                      </Button>
                    </CardActions>
                  )}
                </Card>
              </Box>
            );
          })}
        </Box>
      )}
    </Box>
  );
}
