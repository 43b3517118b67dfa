import { Box, Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { Translate } from '../../i18n/translate.js';
import { taskRewardText } from './reward-text.js';
import type { QuickTask } from './survey-api.js';

/** A task the member may answer: never answered, or answered and rejected (which may be answered again). */
export function canSubmit(task: QuickTask): boolean {
  return task.my_status === null || task.my_status === 'rejected';
}

/**
 * The quick tasks open to the member, one card each: title, reward, where their answer stands, and
 * "Fill in" to `/quicktask?id=` while it may be answered. The quick task page and the member centre's
 * task hall list them alike. Messages come from `common/survey`.
 */
export function QuickTaskList({ t, tasks, label }: { t: Translate; tasks: readonly QuickTask[]; label?: string }) {
  return (
    <Stack component="ul" spacing={1.5} aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {tasks.map((item) => (
        <Box
          component="li"
          key={item.id}
          sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, alignItems: { xs: 'stretch', sm: 'center' }, gap: 1.5, p: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}
        >
          <Box sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            <Typography sx={{ fontWeight: 600 }}>{item.title}</Typography>
            {item.description && (
              <Typography variant="body2" color="text.secondary">
                {item.description}
              </Typography>
            )}
            <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, color: 'text.secondary' }}>
              <Typography variant="body2" component="span">{taskRewardText(t, item.reward_money, item.reward_score)}</Typography>
              {item.my_status && <Typography variant="body2" component="span">{t(`survey.quickTask.state.${item.my_status}`)}</Typography>}
            </Box>
          </Box>
          {canSubmit(item) && (
            <Button variant="contained" component={RouterLink} to={`/quicktask?id=${item.id}`} sx={{ flexShrink: 0 }}>
              {t('survey.quickTask.open')}
            </Button>
          )}
        </Box>
      ))}
    </Stack>
  );
}
