/**
 * The calendars' loading state, also what the pages are pre-rendered with. `reserve` keeps about
 * the room the loaded calendar takes, so the footer does not jump when it arrives (layout shift).
 */
export function LoadingEvents({ reserve }: { reserve?: 'agenda' | 'calendar' }) {
	return (
		<p className={reserve ? `ev-status ev-status--${reserve}` : 'ev-status'} role="status">
			Loading events...
		</p>
	);
}
