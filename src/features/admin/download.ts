/** A text the browser saves as a file (a report's CSV, the generator's configuration). */
export function downloadFile(filename: string, text: string, type: string): void {
	const url = URL.createObjectURL(new Blob([text], { type }));
	const link = document.createElement('a');
	link.href = url;
	link.download = filename;
	document.body.append(link);
	link.click();
	link.remove();
	// After the click has been handled: some browsers read the URL only then.
	setTimeout(() => URL.revokeObjectURL(url), 0);
}
