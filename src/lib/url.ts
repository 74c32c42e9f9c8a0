/**
 * Links from outside data (the tenant file, the membership system, the events source) become
 * `href`s and `src`s on this site's origin, where the admin portal keeps its session: only
 * http(s) URLs are ever used; `javascript:`, `data:` and anything unparsable become ''. No zod
 * and no DOM here, so islands may import it.
 */

/** The URL normalised when it is an absolute http(s) URL, else ''. */
export function safeHttpUrl(url: string | null | undefined): string {
	if (!url) return '';
	try {
		const parsed = new URL(url.trim());
		return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : '';
	} catch {
		return '';
	}
}

/**
 * A link the source may give without a scheme ('www.example.org', '//cdn.example.org/logo.png'):
 * http:// is added first, then the result must be an http(s) URL like any other.
 */
export function safeLinkWithHttp(url: string | null | undefined): string {
	const value = url?.trim() ?? '';
	if (value === '') return '';
	// Another scheme ('javascript:', 'data:', 'ftp:') is refused, not turned into a host name;
	// 'host:8080/path' is a host with a port.
	if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^https?:\/\//i.test(value)) {
		if (!/^[^:/]+:\d+(?:[/?#]|$)/.test(value)) return '';
	}
	const withScheme = /^https?:\/\//i.test(value)
		? value
		: value.startsWith('//')
			? `http:${value}`
			: `http://${value}`;
	// The text as written (a browser parses it exactly as URL does), once it parses as http(s).
	return safeHttpUrl(withScheme) ? withScheme : '';
}
