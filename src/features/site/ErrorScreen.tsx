/**
 * The fallback error screen: what a visitor or an admin sees when something fails
 * that no screen of its own covers: an island that throws (ErrorBoundary) or a page rendered on
 * demand that fails (src/pages/500.astro). Screens of their own ('Configuration Error',
 * 'Event Not Found' …) stay as they are; this is the net under them.
 *
 * Styled with the site's button classes and a few style attributes rather than a stylesheet: a
 * stylesheet imported here would be inlined into every page with an island, for a screen that
 * is almost never shown.
 */

export const ERROR_SCREEN_TITLE = 'Something Went Wrong';

interface Props {
	/** Shown so the visitor can quote it; the same id starts the failure's log line. */
	errorId: string;
	/** 1 when the screen is the whole page (the 500 page), 2 inside a page (an island). */
	headingLevel?: 1 | 2;
}

const row = {
	display: 'flex',
	flexWrap: 'wrap',
	justifyContent: 'center',
	gap: '0.75rem',
} as const;

export default function ErrorScreen({ errorId, headingLevel = 2 }: Props) {
	const Heading = headingLevel === 1 ? 'h1' : 'h2';
	return (
		<section
			role="alert"
			style={{ maxWidth: '36rem', margin: '0 auto', padding: '3rem 1.5rem', textAlign: 'center' }}
		>
			<Heading style={{ marginTop: 0, color: '#991b1b' }}>{ERROR_SCREEN_TITLE}</Heading>
			<p>
				An unexpected error stopped this page from loading: refresh to try again, and if it keeps
				happening, quote the error ID below.
			</p>
			<p style={row}>
				{/* Rendered without React on the 500 page: its own script answers data-error-refresh. */}
				<button
					type="button"
					className="button"
					data-error-refresh=""
					onClick={() => window.location.reload()}
				>
					Refresh Page
				</button>
				<a className="button button--outline" href="/">
					Go to Homepage
				</a>
			</p>
			<p style={{ color: '#4b5563', fontSize: '0.875rem' }}>
				Error ID: <code>{errorId}</code>
			</p>
		</section>
	);
}
