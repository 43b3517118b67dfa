import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { messageOf } from '../../../http/error-body.js';
import { useServerForm } from '../common/use-server-form.js';
import type { TeamApi, TeamInvitation, TeamState } from './team-api.js';

/** "Led by …; N members." in one sentence of the reader's language. */
function teamSummary(translate: ReturnType<typeof useTranslate>, team: { leader: string | null; members: number }): string {
  return team.leader ? translate('memberTeam.summary', { leader: team.leader, smart_count: team.members }) : translate('memberTeam.summaryNoLeader', { smart_count: team.members });
}

function Heading({ id, children }: { id: string; children: string }) {
  return (
    <Typography variant="subtitle1" component="h2" id={id} sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
      {children}
    </Typography>
  );
}

/**
 * The invitation a code or a link names: which team, who leads it, how many are in it; the member joins only
 * by pressing "Join", and declining changes nothing. A member already in a team reads that they leave it first.
 */
function InvitationCard({ invitation, api, onJoined, onDecline }: { invitation: TeamInvitation; api: TeamApi; onJoined(): void; onDecline(): void }) {
  const translate = useTranslate();
  const form = useServerForm();
  const { team } = invitation;
  const join = async () => {
    if (await form.submit(() => api.accept(invitation.code))) onJoined();
  };
  return (
    <Box component="section" aria-labelledby="team-invitation-title" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, mt: 2 }} data-testid="team-invitation">
      <Typography variant="subtitle1" component="h2" id="team-invitation-title" sx={{ fontWeight: 600 }}>
        {translate('memberTeam.invitation.title', { name: team.name })}
      </Typography>
      <Typography sx={{ mt: 0.5 }}>
        {teamSummary(translate, team)}
      </Typography>
      {invitation.current_team !== null && (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          {translate('memberTeam.invitation.alreadyIn', { name: invitation.current_team })}
        </Alert>
      )}
      {form.errors.code && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {form.errors.code}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="contained" disabled={form.busy || invitation.current_team !== null} onClick={() => void join()}>
          {translate('memberTeam.invitation.accept', { name: team.name })}
        </Button>
        <Button onClick={onDecline}>{translate('memberTeam.invitation.decline')}</Button>
      </Stack>
    </Box>
  );
}

/** The code a member types, and the invitation it names once the server has checked it. */
function JoinByCode({ api, initialCode, state, onChanged, onInviteDone }: { api: TeamApi; initialCode: string; state: TeamState; onChanged(): void; onInviteDone(): void }) {
  const translate = useTranslate();
  const [code, setCode] = useState(initialCode);
  const [invitation, setInvitation] = useState<TeamInvitation | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const look = useCallback(async (value: string) => {
    setError(undefined);
    setInvitation(undefined);
    if (value.trim() === '') return setError(translate('memberTeam.join.required'));
    setBusy(true);
    try {
      setInvitation(await api.invitation(value.trim()));
    } catch (cause) {
      setError(messageOf(cause));
    } finally {
      setBusy(false);
    }
  }, [api, translate]);
  // A link opens its invitation at once.
  useEffect(() => {
    if (initialCode) void look(initialCode);
  }, [initialCode, look]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void look(code);
  };
  const inTeam = state.team !== null;
  return (
    <>
      {!inTeam && (
        <Box component="form" noValidate onSubmit={submit} aria-labelledby="team-join-title">
          <Heading id="team-join-title">{translate('memberTeam.join.title')}</Heading>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {translate('memberTeam.join.help')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              size="small"
              name="code"
              label={translate('memberTeam.join.code')}
              value={code}
              autoComplete="off"
              onChange={(event) => {
                setCode(event.target.value);
                setError(undefined);
              }}
              error={Boolean(error)}
              helperText={error ?? ' '}
              slotProps={{ htmlInput: { autoCapitalize: 'characters', spellCheck: false, maxLength: 20 } }}
              sx={{ minWidth: { sm: 260 } }}
            />
            <Button type="submit" variant="outlined" disabled={busy} sx={{ flex: 'none', height: 40 }}>
              {translate('memberTeam.join.look')}
            </Button>
          </Stack>
        </Box>
      )}
      {inTeam && error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      {invitation && (
        <InvitationCard
          invitation={invitation}
          api={api}
          onJoined={() => {
            setInvitation(undefined);
            setCode('');
            onInviteDone();
            onChanged();
          }}
          onDecline={() => {
            setInvitation(undefined);
            setCode('');
            onInviteDone();
          }}
        />
      )}
    </>
  );
}

function CreateTeam({ api, onCreated }: { api: TeamApi; onCreated(): void }) {
  const translate = useTranslate();
  const form = useServerForm();
  const [name, setName] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return form.setErrors({ name: translate('memberTeam.create.required') });
    if (await form.submit(() => api.create(name.trim()))) onCreated();
  };
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="team-create-title">
      <Heading id="team-create-title">{translate('memberTeam.create.title')}</Heading>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {translate('memberTeam.create.help')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          size="small"
          name="name"
          label={translate('memberTeam.create.name')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            form.setErrors({});
          }}
          slotProps={{ htmlInput: { maxLength: 50 } }}
          sx={{ minWidth: { sm: 260 } }}
          {...form.fieldProps('name', ' ')}
        />
        <Button type="submit" variant="contained" disabled={form.busy} sx={{ flex: 'none', height: 40 }}>
          {translate('memberTeam.create.submit')}
        </Button>
      </Stack>
    </Box>
  );
}

/** A member's own team (they do not lead it): its name, leader and size, and leaving it after a confirmation. */
function MyTeam({ state, api, onLeft }: { state: TeamState; api: TeamApi; onLeft(): void }) {
  const translate = useTranslate();
  const form = useServerForm();
  const [confirming, setConfirming] = useState(false);
  const team = state.team;
  if (!team) return null;
  const leave = async () => {
    const done = await form.submit(() => api.leave());
    setConfirming(false);
    if (done) onLeft();
  };
  return (
    <Box component="section" aria-labelledby="team-mine-title">
      <Heading id="team-mine-title">{translate('memberTeam.mine.title', { name: team.name })}</Heading>
      <Typography>
        {teamSummary(translate, team)}
      </Typography>
      <Button variant="outlined" color="error" sx={{ mt: 2 }} onClick={() => setConfirming(true)}>
        {translate('memberTeam.mine.leave')}
      </Button>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="team-leave-title">
        <DialogTitle id="team-leave-title">{translate('memberTeam.mine.leaveTitle', { name: team.name })}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('memberTeam.mine.leaveText')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{translate('ra.action.cancel')}</Button>
          <Button color="error" variant="contained" disabled={form.busy} onClick={() => void leave()}>
            {translate('memberTeam.mine.leave')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/**
 * The team page of a member who leads no team: their team and leaving it, or joining one by a code (or the
 * link's code) and creating one while the operator allows it.
 */
export function TeamJoin({ state, api, inviteCode, onChanged, onInviteDone }: { state: TeamState; api: TeamApi; inviteCode: string; onChanged(): void; onInviteDone(): void }) {
  const translate = useTranslate();
  return (
    <>
      {state.team === null ? (
        <Typography color="text.secondary">{translate('memberTeam.none')}</Typography>
      ) : (
        <MyTeam state={state} api={api} onLeft={onChanged} />
      )}
      <JoinByCode api={api} initialCode={inviteCode} state={state} onChanged={onChanged} onInviteDone={onInviteDone} />
      {state.team === null &&
        (state.can_create ? (
          <CreateTeam api={api} onCreated={onChanged} />
        ) : (
          <Alert severity="info" sx={{ mt: 3 }}>
            {translate('memberTeam.create.closed')}
          </Alert>
        ))}
    </>
  );
}
