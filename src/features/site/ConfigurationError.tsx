import './ConfigurationError.css';

/**
 * The configuration's loading and failure screens,
 * for islands that read the configuration at run time. Pages built from the database never need
 * them: a build without a readable configuration fails instead.
 */

export function ConfigurationLoading() {
	return (
		<div className="config-state" role="status">
			<span className="config-state__spinner" aria-hidden="true" />
			<p>Loading...</p>
		</div>
	);
}

export function ConfigurationError({ message }: { message: string }) {
	return (
		<div className="config-state" role="alert">
			<h2 className="config-state__title">Configuration Error</h2>
			<p>Unable to load chamber configuration. Please try refreshing the page.</p>
			{message && <p className="config-state__message">{message}</p>}
			<button type="button" className="button" onClick={() => window.location.reload()}>
				Refresh Page
			</button>
		</div>
	);
}
