// An event's address on the site. Apart from events.ts so the panel's Events tab links to an
// event's page without loading the calendars' module (which would then be a chunk of its own on
// the calendar pages, over their script budget).

const EVENT_SLUG_MAX = 60;

/** Lowercase, non-alphanumeric runs become hyphens, no edge hyphens, at most 60. */
export function eventSlug(name: string): string {
	const slug = name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
	return slug.slice(0, EVENT_SLUG_MAX).replace(/-+$/, '') || 'event';
}

/** The event detail page, /events/{EventId}/{slug}. */
export function eventPath(event: { EventId: number; EventName: string }): string {
	return `/events/${event.EventId}/${eventSlug(event.EventName)}`;
}
