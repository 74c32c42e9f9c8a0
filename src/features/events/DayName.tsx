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
	return (
		<>
			<span className="sr-only">{before}</span>
			{date}
			<span className="sr-only">{after + suffix}</span>
		</>
	);
}
