import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { chamberTimeZone } from '../config/time-zone.ts';
import ConflictDialog from '../conflicts/ConflictDialog.tsx';
import UndeliveredMessages from '../contact/UndeliveredMessages.tsx';
import PreviewButton from '../publish/PreviewButton.tsx';
import PublishStatus from '../publish/PublishStatus.tsx';
import { formatInZone } from '../publish/schedule.ts';
import { fieldTitle } from './config/labels.ts';
import PublishAt from './PublishAt.tsx';
import {
	$changes,
	$conflicts,
	$draft,
	$saved,
	$saveState,
	resolveConflict,
	saveChanges,
	scheduleChanges,
	type SaveDeps,
} from './store.ts';

interface Props extends Omit<SaveDeps, 'fetch' | 'setTimeout'> {
	/** Publishing and preview concern this deployment's chamber only. */
	ownChamber: boolean;
	/** Whether the user may read visitors' messages (and so sees those not delivered yet). */
	readsMessages: boolean;
}

/** Leaving the page with unsaved changes asks first (docs/behaviour.md#admin-panel). */
export function hasUnsavedChanges(): boolean {
	return $changes.get().length > 0;
}

export const LEAVE_QUESTION = 'You have unsaved changes. Leave without saving them?';

/**
 * The header's side of the panel: 'Save Changes' only while something is unsaved,
 * 'Saving...' then 'Saved!', 'Publish at…' (the changes go live at a chosen time instead), the
 * publish status with what is scheduled, Preview, and visitors' messages not delivered yet; and
 * the dialog for fields someone else saved meanwhile.
 */
export default function PanelActions({ ownChamber, readsMessages, ...deps }: Props) {
	const changes = useStore($changes);
	const state = useStore($saveState);
	const draft = useStore($draft);
	const conflicts = useStore($conflicts);
	const saved = useStore($saved);
	const timeZone = saved ? chamberTimeZone(saved) : 'America/New_York';

	useEffect(() => {
		if (!changes.length) return;
		const ask = (event: BeforeUnloadEvent) => {
			event.preventDefault();
		};
		window.addEventListener('beforeunload', ask);
		return () => window.removeEventListener('beforeunload', ask);
	}, [changes.length]);

	return (
		<>
			{state === 'saving' && (
				<button type="button" className="admin-button admin-button--save" disabled>
					Saving...
				</button>
			)}
			{state === 'saved' && (
				<p className="admin-saved" role="status">
					Saved!
				</p>
			)}
			{state === 'idle' && changes.length > 0 && (
				<button
					type="button"
					className="admin-button admin-button--save"
					onClick={() => void saveChanges({ ...deps, publishes: ownChamber })}
				>
					Save Changes
					<span className="sr-only">
						{' '}
						({changes.length} {changes.length === 1 ? 'change' : 'changes'})
					</span>
				</button>
			)}
			{ownChamber && state === 'idle' && changes.length > 0 && (
				<PublishAt
					timeZone={timeZone}
					what={changes.length === 1 ? 'this change' : `these ${changes.length} changes`}
					onSchedule={(at) => scheduleChanges(deps, at, (runAt) => formatInZone(runAt, timeZone))}
				/>
			)}
			{ownChamber && draft && (
				<PreviewButton getAccessToken={deps.getAccessToken} getConfig={() => $draft.get()!} />
			)}
			{ownChamber && readsMessages && <UndeliveredMessages getAccessToken={deps.getAccessToken} />}
			{ownChamber && <PublishStatus getAccessToken={deps.getAccessToken} timeZone={timeZone} />}
			<ConflictDialog
				conflicts={conflicts.map((c) => ({ ...c, label: fieldTitle(c.field) }))}
				onKeepMine={(field) => void resolveConflict(field, 'mine', deps)}
				onTakeTheirs={(field) => void resolveConflict(field, 'theirs', deps)}
				formatTime={(iso) => formatInZone(iso, timeZone)}
			/>
		</>
	);
}
