import './ErrorScreen.css';

/**
 * The fallback error screen (spec 02 §2): what a visitor or an admin sees when something fails
 * that no screen of its own covers: an island that throws (ErrorBoundary) or a page rendered on
 * demand that fails (src/pages/500.astro). Screens the specs define ('Configuration Error',
 * 'Event Not Found' …) stay as they are; this is the net under them.
 */

export const ERROR_SCREEN_TITLE = 'Something Went Wrong';

interface Props {
	/** Shown so the visitor can quote it; the same id starts the failure's log line. */
	errorId: string;
	/** 1 when the screen is the whole page (the 500 page), 2 inside a page (an island). */
	headingLevel?: 1 | 2;
}

export default function ErrorScreen({ errorId, headingLevel = 2 }: Props) {
	const Heading = headingLevel === 1 ? 'h1' : 'h2';
	return (
		<section className="error-screen" role="alert" aria-labelledby={`error-${errorId}`}>
			<Heading className="error-screen__title" id={`error-${errorId}`}>
				{ERROR_SCREEN_TITLE}
			</Heading>
			<p>
				An unexpected error stopped this page from loading: refresh to try again, and if it keeps
				happening, quote the error ID below.
			</p>
			<p className="error-screen__actions">
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
			<p className="error-screen__id">
				Error ID: <code>{errorId}</code>
			</p>
		</section>
	);
}
