import { useId } from 'react';
import { useStore } from '@nanostores/react';
import Dialog from '../ui/Dialog.tsx';
import { budgetConfirmText, NETLIFY_CREDITS } from './policy.ts';
import { $confirmation } from './store.ts';

interface Props {
	/** Publishes with the cost confirmed (the store's confirm). */
	onConfirm(): Promise<void>;
}

/**
 * The confirmation a staff publish asks for once the month's budget is used: what it costs on
 * Netlify, and that without it the changes go out with the daily publish. Escape or 'Wait' leave
 * them waiting; nothing is lost either way.
 */
export default function BudgetConfirm({ onConfirm }: Props) {
	const ids = useId();
	const pending = useStore($confirmation);
	return (
		<Dialog
			open={pending !== null}
			labelledBy={`${ids}-title`}
			describedBy={`${ids}-text`}
			onClose={() => $confirmation.set(null)}
		>
			{pending && (
				<div className="budget-confirm">
					<h2 id={`${ids}-title`}>Publish past this month’s budget?</h2>
					<p id={`${ids}-text`}>{budgetConfirmText(pending.budget)}</p>
					<div className="ops-dialog__actions">
						<button
							type="button"
							className="admin-button admin-button--secondary"
							onClick={() => $confirmation.set(null)}
						>
							Wait for the daily publish
						</button>
						<button type="button" className="admin-button" onClick={() => void onConfirm()}>
							Publish for {NETLIFY_CREDITS.deploy} credits
						</button>
					</div>
				</div>
			)}
		</Dialog>
	);
}
