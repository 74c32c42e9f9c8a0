import { useId, useState, type SubmitEvent } from 'react';
import type { AdminTabProps } from '../../admin/admin.ts';
import { callApi } from '../../ui/api.ts';
import ImportJobView from './ImportJobView.tsx';
import { IMPORT_LIMITS, LIMIT_MESSAGES } from './limits.ts';
import { useImportJob } from './useImportJob.ts';
import './import.css';
import ErrorBanner from '../../admin/ErrorBanner.tsx';

/** What the file input offers (the server reads the format from the file itself). */
const ACCEPT =
	'.csv,.xlsx,.json,text/csv,application/json,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A file's name as an object name in Storage: letters, digits, dot, dash and underscore. */
function objectName(name: string): string {
	return name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(-100) || 'members';
}

function contentType(file: File): string {
	if (file.type) return file.type;
	if (/\.json$/i.test(file.name)) return 'application/json';
	if (/\.xlsx$/i.test(file.name)) {
		return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
	}
	return 'text/csv';
}

/**
 * Import members from a file (CSV, Excel or the tenant file's JSON): the file goes to the private
 * imports bucket with the user's own token, the background function reads it and makes the dry
 * run, the person sees every change before anything is written, chooses what happens to members
 * the file lacks, and applies it in one go. Mount it in the Members tab with the tab's props.
 */
export default function ImportPanel({ chamber, client, getAccessToken }: AdminTabProps) {
	const { job, loaded, reload, dismiss, started } = useImportJob(client, chamber.id, 'file');
	const [file, setFile] = useState<File | null>(null);
	const [busy, setBusy] = useState<string | null>(null);
	const [error, setError] = useState<string | null>(null);
	const id = useId();

	async function upload(event: SubmitEvent) {
		event.preventDefault();
		if (!file) {
			setError('Choose a file first.');
			return;
		}
		// The bucket would refuse it too, in words of its own.
		if (file.size > IMPORT_LIMITS.fileBytes) {
			setError(LIMIT_MESSAGES.fileBytes);
			return;
		}
		setError(null);
		setBusy(`Uploading ${file.name}…`);
		const path = `${chamber.id}/${crypto.randomUUID()}-${objectName(file.name)}`;
		const { error: uploadError } = await client.storage
			.from('imports')
			.upload(path, file, { contentType: contentType(file) });
		if (uploadError) {
			setBusy(null);
			setError(`The file could not be uploaded: ${uploadError.message}`);
			return;
		}
		setBusy('Starting the preview…');
		const result = await callApi('/api/member-imports', getAccessToken, {
			json: { chamber: chamber.key, path, fileName: file.name },
			fallback: 'The import could not be started.',
		});
		setBusy(null);
		if (!result.ok) {
			setError(result.error);
			return;
		}
		setFile(null);
		started();
	}

	if (!loaded) return <p className="admin-status">Loading imports…</p>;
	return (
		<section className="member-import" aria-labelledby={`${id}-title`}>
			<h3 id={`${id}-title`}>Import members</h3>
			{job ? (
				<ImportJobView
					job={job}
					client={client}
					getAccessToken={getAccessToken}
					onChanged={() => void reload()}
					onDone={dismiss}
				/>
			) : (
				<form onSubmit={(e) => void upload(e)}>
					<p>
						Upload your membership system’s export (CSV or Excel) or a tenant file (JSON). You see
						every change before anything is written.
					</p>
					<label className="admin-field">
						<span>Member file</span>
						<input
							type="file"
							accept={ACCEPT}
							onChange={(e) => setFile(e.target.files?.[0] ?? null)}
						/>
					</label>
					<ErrorBanner error={error} />
					{busy && <p role="status">{busy}</p>}
					<button type="submit" className="admin-button" disabled={busy !== null}>
						Upload and preview
					</button>
				</form>
			)}
		</section>
	);
}
