import { Button, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { PageCard } from '../common/PageCard.js';
import { TaskList } from './TaskList.js';
import { WallEntries } from './WallEntries.js';

/** `survey/tasks`: the surveys open to the member now, the survey walls ("more surveys"), and the way to the quick tasks. */
export function TasksPage() {
  const translate = useTranslate();
  return (
    <PageCard title={translate('memberShell.menus.survey/tasks')}>
      <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
        <Button component={Link} to="/quicktask" variant="outlined" size="small">
          {translate('survey.quickTask.title')}
        </Button>
      </Stack>
      <WallEntries t={translate} />
      <TaskList t={translate} />
    </PageCard>
  );
}
