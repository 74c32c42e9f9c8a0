import { dateRangeLabel, eventPath, isCancelled, timeLabel, type Event } from './events.ts';

/** One event in a list: linked name, long date, start-end time with zone, venue, its summary. */
export function EventSummary({ event }: { event: Event }) {
	return (
		<article className="ev-summary">
			<h3 className="ev-summary__name">
				<a href={eventPath(event)}>
					{isCancelled(event) && 'Cancelled: '}
					{event.EventName}
				</a>
			</h3>
			<p className="ev-summary__when">
				<span>{dateRangeLabel(event)}</span>
				<span>{timeLabel(event)}</span>
			</p>
			{event.Venue && <p className="ev-summary__venue">{event.Venue}</p>}
			{event.Summary && <p className="ev-summary__text">{event.Summary}</p>}
		</article>
	);
}
