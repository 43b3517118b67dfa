import { useEffect } from 'react';
import { Notification, useCloseNotification, useNotificationContext } from 'react-admin';

/**
 * Closes the message on screen as soon as another one is waiting. react-admin shows its messages one at a
 * time and holds the next until the current one times out, so an action taken within those seconds ended
 * with the previous action's message ("Approved" after a rejection). Rendered as the snackbar's action, it
 * lives inside the notification's close context; every mutation of the app is pessimistic, so no message
 * carries an undo button this would take the place of.
 */
function CloseWhenSuperseded() {
  const { notifications } = useNotificationContext();
  const close = useCloseNotification();
  useEffect(() => {
    if (notifications.length > 0) close();
  }, [notifications, close]);
  return null;
}

/** The app's message area: react-admin's, where a new message replaces the one shown. */
export function LatestNotification() {
  return <Notification action={<CloseWhenSuperseded />} />;
}
