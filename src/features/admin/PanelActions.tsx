import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import UndeliveredMessages from '../contact/UndeliveredMessages.tsx';
import PreviewButton from '../publish/PreviewButton.tsx';
import PublishStatus from '../publish/PublishStatus.tsx';
import { $changes, $draft, $saveState, saveChanges, type SaveDeps } from './store.ts';

interface Props extends Omit<SaveDeps, 'fetch' | 'setTimeout'> {
	/** Publishing and preview concern this deployment's chamber only. */
	ownChamber: boolean;
	/** Whether the user may read visitors' messages (and so sees those not delivered yet). */
	readsMessages: boolean;
}

/** Leaving the page with unsaved changes asks first (spec 02 §4). */
export function hasUnsavedChanges(): boolean {
	return $changes.get().length > 0;
}

export const LEAVE_QUESTION = 'You have unsaved changes. Leave without saving them?';

/**
 * The header's side of the panel (spec 02 §2): 'Save Changes' only while something is unsaved,
 * 'Saving...' then 'Saved!', the publish status, Preview, and visitors' messages not delivered
 * yet.
 */
export default function PanelActions({ ownChamber, readsMessages, ...deps }: Props) {
	const changes = useStore($changes);
	const state = useStore($saveState);
	const draft = useStore($draft);

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
					onClick={() => void saveChanges(deps)}
				>
					Save Changes
					<span className="sr-only">
						{' '}
						({changes.length} {changes.length === 1 ? 'change' : 'changes'})
					</span>
				</button>
			)}
			{ownChamber && draft && (
				<PreviewButton getAccessToken={deps.getAccessToken} getConfig={() => $draft.get()!} />
			)}
			{ownChamber && readsMessages && <UndeliveredMessages getAccessToken={deps.getAccessToken} />}
			{ownChamber && <PublishStatus getAccessToken={deps.getAccessToken} />}
		</>
	);
}
