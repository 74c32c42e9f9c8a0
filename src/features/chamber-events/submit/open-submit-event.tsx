import { useEffect, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { ErrorBoundary } from '../../site/ErrorBoundary.tsx';
import SubmitEventDialog from './SubmitEventDialog.tsx';

/**
 * Entry of /community-events' 'Submit an event', built as one standalone script (React included)
 * that the page imports on the first click of the button; nothing loads before, so the calendar
 * keeps its script budget. It then answers the 'community:submit-event' event the button sends.
 * The host element carries the reCAPTCHA site key.
 */

let root: Root | undefined;
let openDialog: (() => void) | undefined;

function Host({ recaptchaSiteKey }: { recaptchaSiteKey: string }) {
	const [open, setOpen] = useState(true);
	useEffect(() => {
		openDialog = () => setOpen(true);
	}, []);
	return (
		<SubmitEventDialog
			recaptchaSiteKey={recaptchaSiteKey}
			open={open}
			onClose={() => setOpen(false)}
		/>
	);
}

function openSubmitEvent(opener: HTMLElement): void {
	const host = document.getElementById('submit-event-dialog');
	if (!host) return;
	// The dialog gives focus back to what had it; a click does not focus a button everywhere.
	opener.focus();
	if (root) {
		openDialog?.();
		return;
	}
	root = createRoot(host);
	root.render(
		<ErrorBoundary name="SubmitEventDialog">
			<Host recaptchaSiteKey={host.dataset.recaptchaKey ?? ''} />
		</ErrorBoundary>,
	);
}

document.addEventListener('community:submit-event', (event) => {
	if (event.target instanceof HTMLElement) openSubmitEvent(event.target);
});
