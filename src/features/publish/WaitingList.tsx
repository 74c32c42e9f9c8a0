import { liveByText, zonedTime, type WaitingChange } from './policy.ts';

interface Props {
	waiting: readonly WaitingChange[];
	/** The chamber's time zone: times are shown on its clock. */
	timeZone: string;
	/** The clock, for 'today' (tests). */
	now?: Date;
	/** In the header: a disclosure that opens the list; in History and Requests: the list. */
	compact?: boolean;
}

const SOURCE_TEXT = {
	member: 'A member',
	sync: 'The membership system’s sync',
	import: 'An import',
	staff: 'Staff',
	scheduled: 'A scheduled publish',
} as const;

/**
 * The changes waiting for a publish (members' own saves, syncs, imports; at the budget, staff's
 * and scheduled ones too): what, who, and when each is live at the latest on the chamber's clock.
 */
export default function WaitingList({
	waiting,
	timeZone,
	now = new Date(),
	compact = false,
}: Props) {
	if (waiting.length === 0) return null;
	const list = (
		<ul className="scheduled-list waiting-list">
			{waiting.map((item) => (
				<li key={item.id} className="scheduled-list__item">
					<p>
						<strong>{liveByText(item.dueAt, timeZone, now)}</strong>
						{item.daily ? ' (the daily publish: the month’s budget is used)' : ''}: {item.summary}.{' '}
						{SOURCE_TEXT[item.source]}
						{item.requestedBy && item.source !== 'member' ? ` (${item.requestedBy})` : ''}, saved{' '}
						{zonedTime(item.createdAt, timeZone, now)}.
					</p>
				</li>
			))}
		</ul>
	);
	if (!compact) return list;
	return (
		<details className="scheduled">
			<summary>
				{waiting.length} {waiting.length === 1 ? 'change waits' : 'changes wait'} for a publish:{' '}
				{liveByText(waiting[0]!.dueAt, timeZone, now).replace(/^Live/, 'live')}
			</summary>
			{list}
		</details>
	);
}
