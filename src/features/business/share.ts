/**
 * 'Share Business': the native share sheet where there is one, else the link is
 * copied and an alert says so. Failures (a dismissed sheet, a refused clipboard) are only
 * logged. A standalone script the profile loads on the first click; it then answers the
 * 'profile:share' event the page sends from the button, which carries the path and name.
 */
async function shareBusiness(button: HTMLElement): Promise<void> {
	const url = new URL(button.dataset.sharePath ?? location.pathname, location.origin).href;
	const title = button.dataset.shareTitle ?? document.title;
	try {
		if (typeof navigator.share === 'function') {
			await navigator.share({ title, url });
			return;
		}
		await navigator.clipboard.writeText(url);
		alert('Business link copied to clipboard!');
	} catch (error) {
		console.error('Share failed', error);
	}
}

document.addEventListener('profile:share', (event) => {
	if (event.target instanceof HTMLElement) void shareBusiness(event.target);
});
