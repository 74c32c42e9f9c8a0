import { dayNameParts, type DayKey } from './calendar.ts';

/**
 * A calendar day's date as the cell shows it, inside the rest of its name for screen readers
 * ('Tuesday, November 3, 2026, 2 events'): the cell's name comes from its content, so it holds
 * the visible date (Label in Name). `suffix` continues the hidden part (': ' before events).
 */
export function DayName({
	day,
	count,
	suffix = '',
}: {
	day: DayKey;
	count: number;
	suffix?: string;
}) {
	const { before, date, after } = dayNameParts(day, count);
	// The comma after the date stays in the line, unseen: a visually hidden element is a block to
	// the browser's name computation, which would otherwise read 'December 5 , 2026'.
	const comma = after.startsWith(',') ? ',' : '';
	return (
		<>
			<span className="sr-only">{before}</span>
			{date}
			{comma && <span className="day-name__comma">{comma}</span>}
			<span className="sr-only">{after.slice(comma.length) + suffix}</span>
		</>
	);
}
