import { useEffect, useState } from 'react';
import { Alert, Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { messageOf } from '../../../http/error-body.js';
import { currentLanguage } from '../../../i18n/store-config.js';
import type { Translate } from '../../../i18n/translate.js';
import { QuickTaskList } from '../../../pages/survey/QuickTaskList.js';
import { surveyApi, type QuickTask, type SurveyApi, type SurveyTask } from '../../../pages/survey/survey-api.js';
import { PageCard } from '../common/PageCard.js';
import { TaskList } from './TaskList.js';
import { WallEntries } from './WallEntries.js';

/** A list of the hall as it loads: undefined until it arrives, or why it could not be had. */
type Loaded<T> = { list: T[] } | { failure: string } | undefined;

function useLoaded<T>(load: () => Promise<T[]>): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>(undefined);
  // the titles come in the reader's language: another language loads them again
  const language = currentLanguage();
  useEffect(() => {
    let alive = true;
    load().then(
      (list) => alive && setLoaded({ list }),
      (error: unknown) => alive && setLoaded({ failure: messageOf(error) }),
    );
    return () => {
      alive = false;
    };
  }, [load, language]);
  return loaded;
}

const listOf = <T,>(loaded: Loaded<T>): T[] => (loaded && 'list' in loaded ? loaded.list : []);

/**
 * The task hall's content: the survey walls ("more surveys"), the surveys open to the member now and the
 * quick tasks, each under its heading. Only when neither surveys nor quick tasks are open does it say
 * that nothing is. Messages come from `common/survey`.
 */
export function TaskHall({ t, api = surveyApi }: { t: Translate; api?: SurveyApi }) {
  const surveys = useLoaded<SurveyTask>(api.tasks);
  const quickTasks = useLoaded<QuickTask>(api.quickTasks);
  const failures = [surveys, quickTasks].flatMap((loaded) => (loaded && 'failure' in loaded ? [loaded.failure] : []));
  const bothLoaded = surveys !== undefined && quickTasks !== undefined;
  const nothingOpen = bothLoaded && failures.length === 0 && listOf(surveys).length === 0 && listOf(quickTasks).length === 0;
  const heading = (text: string) => (
    <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mt: 2, mb: 1 }}>
      {text}
    </Typography>
  );
  return (
    <>
      <WallEntries t={t} api={api} />
      {failures.map((failure) => (
        <Alert key={failure} severity="error" sx={{ mb: 1 }}>
          {failure}
        </Alert>
      ))}
      {nothingOpen && <Typography color="text.secondary">{t('survey.tasks.nothingOpen')}</Typography>}
      {listOf(surveys).length > 0 && (
        <Box>
          {heading(t('survey.tasks.title'))}
          <TaskList t={t} tasks={listOf(surveys)} />
        </Box>
      )}
      {listOf(quickTasks).length > 0 && (
        <Box component="section" aria-label={t('survey.tracking.quickTasks')}>
          {heading(t('survey.tracking.quickTasks'))}
          <QuickTaskList t={t} tasks={listOf(quickTasks)} />
        </Box>
      )}
    </>
  );
}

/** `survey/tasks`: the task hall in the member centre. */
export function TasksPage() {
  const translate = useTranslate();
  return (
    <PageCard title={translate('memberShell.menus.survey/tasks')}>
      <TaskHall t={translate} />
    </PageCard>
  );
}
