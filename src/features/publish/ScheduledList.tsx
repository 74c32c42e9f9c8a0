import { useState } from 'react';
import { formatInZone, writtenWithoutPublish, type ScheduledView } from './schedule.ts';

interface Props {
	scheduled: readonly ScheduledView[];
	/** The chamber's time zone: times are shown on its clock. */
	timeZone: string;
	onCancel(id: number): Promise<void>;
	/** In the header: a disclosure that opens the list; in History: the list itself. */
	compact?: boolean;
}

const STATE_TEXT = {
	scheduled: 'Goes live',
	published: 'Went live',
	canceled: 'Cancelled, was due',
	failed: 'Failed, was due',
} as const;

/** 'Goes live Nov 28, 2026, 09:00 CST', what a line says of when. */
function whenText(item: ScheduledView, timeZone: string): string {
	const at = formatInZone(item.runAt, timeZone);
	// Nobody was there to confirm the cost of its own publish; the waiting changes beside it say by
	// when the next one comes.
	if (writtenWithoutPublish(item)) {
		return item.liveAt
			? `Written ${at}, live ${formatInZone(item.liveAt, timeZone)}`
			: `Written ${at}, live with the next publish`;
	}
	return `${STATE_TEXT[item.state]} ${at}`;
}

/**
 * What is scheduled to go live: when (on the chamber's clock), what, by whom, with Cancel; and
 * what went live, failed (with the reason) or was cancelled.
 */
export default function ScheduledList({ scheduled, timeZone, onCancel, compact = false }: Props) {
	const [cancelling, setCancelling] = useState<number | null>(null);
	if (scheduled.length === 0) return null;
	const waiting = scheduled.filter((s) => s.state === 'scheduled').length;
	const failed = scheduled.filter((s) => s.state === 'failed').length;

	const list = (
		<ul className="scheduled-list">
			{scheduled.map((item) => (
				<li key={item.id} className={`scheduled-list__item scheduled-list__item--${item.state}`}>
					<p>
						<strong>{whenText(item, timeZone)}</strong>: {item.summary}
						{item.createdBy ? `, scheduled by ${item.createdBy}` : ''}
						{item.state === 'canceled' && item.canceledBy
							? `, cancelled by ${item.canceledBy}`
							: ''}
					</p>
					{item.state === 'failed' && item.error && (
						<p className="scheduled-list__error">{item.error}</p>
					)}
					{item.state === 'scheduled' && (
						<button
							type="button"
							className="scheduled-list__cancel"
							disabled={cancelling !== null}
							aria-label={`Cancel the publish scheduled for ${formatInZone(item.runAt, timeZone)}: ${item.summary}`}
							onClick={() => {
								setCancelling(item.id);
								void onCancel(item.id).finally(() => setCancelling(null));
							}}
						>
							{cancelling === item.id ? 'Cancelling…' : 'Cancel'}
						</button>
					)}
				</li>
			))}
		</ul>
	);

	if (!compact) return list;
	const parts = [
		waiting ? `${waiting} scheduled` : '',
		failed ? `${failed} scheduled publish${failed === 1 ? '' : 'es'} failed` : '',
	].filter(Boolean);
	return (
		<details className={`scheduled${failed ? ' scheduled--failed' : ''}`}>
			<summary>{parts.join(', ')}</summary>
			{list}
		</details>
	);
}
