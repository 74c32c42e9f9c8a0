// Plain text as the HTML an event's description is (sanitised when shown): every character
// escaped, blank lines between paragraphs, line breaks kept. Dependency-free: a feed's reader
// and the community's submissions share it.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** '' for blank text; at most `max` characters of HTML. */
export function plainTextHtml(text: string, max = 20_000): string {
	const trimmed = text.trim();
	if (!trimmed) return '';
	return trimmed
		.replace(/[&<>"]/g, (c) => ESCAPES[c]!)
		.split(/\r?\n\s*\r?\n/)
		.map((paragraph) => `<p>${paragraph.trim().split(/\r?\n/).join('<br>')}</p>`)
		.join('')
		.slice(0, max);
}
