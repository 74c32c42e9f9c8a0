import { dateRangeLabel, eventPath, timeLabel, type Event } from './events.ts';

export function FeaturedEventCard({ event }: { event: Event }) {
	return (
		<section className="ev-featured" aria-labelledby="ev-featured-title">
			<h2 id="ev-featured-title" className="ev-featured__label">
				Featured Event
			</h2>
			<h3 className="ev-featured__name">
				<a href={eventPath(event)}>{event.EventName}</a>
			</h3>
			<p>{dateRangeLabel(event)}</p>
			<p>{timeLabel(event)}</p>
			{event.Venue && <p>{event.Venue}</p>}
			{event.Summary && <p className="ev-summary__text">{event.Summary}</p>}
		</section>
	);
}
