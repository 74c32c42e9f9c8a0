import { useStore } from '@nanostores/react';
import { createRoot, type Root } from 'react-dom/client';
import { ErrorBoundary } from '../site/ErrorBoundary.tsx';
import ContactDialog from './ContactDialog.tsx';
import { $contactOpen } from './store.ts';

/**
 * Entry of the profile's contact dialog, built as one standalone script (React included) that
 * the page imports on the first click of 'Send Message' or 'Contact'; nothing loads before.
 * It then answers the 'profile:contact' event the page sends from the clicked button. The host
 * element carries the business's id and name and the reCAPTCHA site key.
 */

let root: Root | undefined;

function Host({
	businessId,
	businessName,
	recaptchaSiteKey,
}: {
	businessId: string;
	businessName: string;
	recaptchaSiteKey: string;
}) {
	const open = useStore($contactOpen);
	return (
		<ContactDialog
			businessId={businessId}
			businessName={businessName}
			recaptchaSiteKey={recaptchaSiteKey}
			open={open}
			onClose={() => $contactOpen.set(false)}
		/>
	);
}

function openContact(opener: HTMLElement): void {
	const host = document.getElementById('contact-dialog');
	if (!host) return;
	// The dialog gives focus back to what had it when it opened; a click does not focus a button
	// everywhere (Safari), so the opener is focused here.
	opener.focus();
	root ??= createRoot(host);
	root.render(
		<ErrorBoundary name="ContactDialog">
			<Host
				businessId={host.dataset.businessId ?? ''}
				businessName={host.dataset.businessName ?? ''}
				recaptchaSiteKey={host.dataset.recaptchaKey ?? ''}
			/>
		</ErrorBoundary>,
	);
	$contactOpen.set(true);
}

document.addEventListener('profile:contact', (event) => {
	if (event.target instanceof HTMLElement) openContact(event.target);
});
