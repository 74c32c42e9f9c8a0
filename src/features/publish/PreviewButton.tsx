import { useEffect, useRef, useState } from 'react';
import type { ChamberConfigInput } from '../config/config.ts';
import './publish.css';

interface Props {
	getAccessToken(): Promise<string>;
	/** The configuration with the panel's unsaved changes applied. */
	getConfig(): ChamberConfigInput;
	fetch?: typeof fetch;
}

/** The preview page (an on-demand page: src/routes/admin-panel-preview.astro). */
const PREVIEW_PATH = '/chamber-config-v2/preview';

/** POSTs the configuration and answers the rendered home page, or throws with the reason. */
async function fetchPreview(
	token: string,
	config: ChamberConfigInput,
	doFetch: typeof fetch = fetch,
): Promise<string> {
	const response = await doFetch(PREVIEW_PATH, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ config }),
	});
	if (!response.ok) {
		const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
		throw new Error(typeof body?.error === 'string' ? body.error : 'Failed to load the preview');
	}
	return response.text();
}

/**
 * 'Preview': the public home page with the unsaved changes, in a dialog. The page is shown in a
 * sandboxed frame that runs no script (it still gets the site's fonts and images), so nothing in
 * it can reach the panel's session.
 */
export default function PreviewButton({ getAccessToken, getConfig, fetch: doFetch }: Props) {
	const [html, setHtml] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const dialog = useRef<HTMLDialogElement>(null);

	useEffect(() => {
		if (html !== null && dialog.current && !dialog.current.open) dialog.current.showModal();
	}, [html]);

	async function open() {
		setBusy(true);
		setError(null);
		try {
			setHtml(await fetchPreview(await getAccessToken(), getConfig(), doFetch));
		} catch (problem) {
			setError(problem instanceof Error ? problem.message : 'Failed to load the preview');
		} finally {
			setBusy(false);
		}
	}

	return (
		<>
			<button
				type="button"
				className="auth-button auth-button--small"
				disabled={busy}
				onClick={() => void open()}
			>
				{busy ? 'Loading preview…' : 'Preview'}
			</button>
			{error && (
				<p className="publish-status__error" role="alert">
					{error}
				</p>
			)}
			{html !== null && (
				<dialog
					ref={dialog}
					className="publish-preview"
					aria-label="Preview of the home page"
					onClose={() => setHtml(null)}
				>
					<div className="publish-preview__bar">
						<span>Preview: not saved, not published</span>
						<button type="button" onClick={() => dialog.current?.close()}>
							Close preview
						</button>
					</div>
					<iframe
						title="Home page with your unsaved changes"
						sandbox="allow-same-origin"
						srcDoc={html}
					/>
				</dialog>
			)}
		</>
	);
}
