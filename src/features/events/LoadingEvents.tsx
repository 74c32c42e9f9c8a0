/** The calendars' loading state, also what the pages are pre-rendered with. */
export function LoadingEvents() {
	return (
		<p className="ev-status" role="status">
			Loading events...
		</p>
	);
}
