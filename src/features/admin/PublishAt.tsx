import { useId, useState } from 'react';
import { nextScheduleMark, SCHEDULE_STEP_MINUTES } from '../publish/schedule.ts';
import Dialog from '../ui/Dialog.tsx';
import '../ui/ui.css';

interface Props {
	/** The chamber's time zone: the time is entered on its clock. */
	timeZone: string;
	/** What the button schedules, e.g. 'these changes'. */
	what: string;
	/** Stores it; true when it was scheduled (the dialog closes). */
	onSchedule(at: string): Promise<boolean>;
	disabled?: boolean;
	/** The button's text. */
	label?: string;
	className?: string;
	now?: () => Date;
}

/**
 * 'Publish at…': a button and a modal dialog with a date and time on the chamber's clock, on the
 * 5-minute marks the scheduled function runs at, for a save or a restore.
 */
export default function PublishAt({
	timeZone,
	what,
	onSchedule,
	disabled,
	label = 'Publish at…',
	className = 'admin-button admin-button--secondary',
	now = () => new Date(),
}: Props) {
	const ids = useId();
	const [open, setOpen] = useState(false);
	const [at, setAt] = useState('');
	const [busy, setBusy] = useState(false);

	const earliest = nextScheduleMark(now(), timeZone, 1);
	return (
		<>
			<button
				type="button"
				className={className}
				disabled={disabled}
				onClick={() => {
					setAt(nextScheduleMark(now(), timeZone));
					setOpen(true);
				}}
			>
				{label}
			</button>
			<Dialog open={open} labelledBy={`${ids}-title`} onClose={() => setOpen(false)}>
				<form
					className="publish-at"
					onSubmit={(event) => {
						event.preventDefault();
						setBusy(true);
						void onSchedule(at)
							.then((done) => {
								if (done) setOpen(false);
							})
							.finally(() => setBusy(false));
					}}
				>
					<h2 id={`${ids}-title`}>Publish {what} at</h2>
					<label>
						Date and time ({timeZone})
						<input
							type="datetime-local"
							required
							value={at}
							min={earliest}
							step={SCHEDULE_STEP_MINUTES * 60}
							aria-describedby={`${ids}-hint`}
							onChange={(event) => setAt(event.target.value)}
						/>
					</label>
					<p id={`${ids}-hint`}>
						On the chamber’s clock ({timeZone}). Changes go live on the 5-minute marks.
					</p>
					<div className="ops-dialog__actions">
						<button
							type="button"
							className="admin-button admin-button--secondary"
							onClick={() => setOpen(false)}
						>
							Cancel
						</button>
						<button type="submit" className="admin-button" disabled={busy || !at}>
							{busy ? 'Scheduling…' : 'Schedule'}
						</button>
					</div>
				</form>
			</Dialog>
		</>
	);
}
