import { useEffect, useId, useRef, useState } from 'react';
import { can } from '../../auth/auth.ts';
import { publishRequested } from '../../publish/store.ts';
import type { AdminTabProps } from '../admin.ts';
import { at, callApi, expiresIn } from '../../ui/api.ts';
import '../../ui/ui.css';
import {
	acceptFor,
	LOGO_CLEAR_MS,
	LOGO_LABELS,
	LOGO_MAX_BYTES,
	LOGO_TOO_LARGE,
	LOGO_TYPES,
	LOGO_UPLOAD_FAILED,
	type LogoType,
} from './logos.ts';

type State =
	| { kind: 'idle' }
	| { kind: 'uploading'; type: LogoType }
	| { kind: 'done'; type: LogoType; url: string; until: number }
	| { kind: 'failed'; type: LogoType; error: string };

const HINTS: Readonly<Record<LogoType, string>> = {
	standard: 'The header logo. PNG, SVG, JPG or WebP, under 5MB.',
	stacked: 'Shown on phones. PNG, SVG, JPG or WebP, under 5MB.',
	favicon: 'The browser tab icon. ICO, PNG or WebP, under 5MB.',
};

/**
 * The Logos tab: an upload per logo with the current one previewed. While
 * one uploads every file input is disabled; a success shows the new logo, reloads the
 * configuration and clears after 1 s; a failure says why (the server reads the file's bytes; the
 * size is checked here first so a large file is not sent at all).
 */
export default function LogosTab({
	user,
	chamber,
	config,
	getAccessToken,
	reloadConfig,
}: AdminTabProps) {
	const [state, setState] = useState<State>({ kind: 'idle' });
	const inputs = useRef(new Map<LogoType, HTMLInputElement>());
	const ids = useId();

	useEffect(() => {
		if (state.kind !== 'done') return;
		return at(state.until, () => {
			const input = inputs.current.get(state.type);
			if (input) input.value = '';
			setState({ kind: 'idle' });
		});
	}, [state]);

	async function upload(type: LogoType, file: File | undefined) {
		if (!file) return;
		if (file.size > LOGO_MAX_BYTES) {
			setState({ kind: 'failed', type, error: LOGO_TOO_LARGE });
			return;
		}
		setState({ kind: 'uploading', type });
		const form = new FormData();
		form.set('logo', file);
		form.set('logoType', type);
		form.set('chamber', chamber.key);
		const result = await callApi<{ url: string; publish: unknown }>(
			'/api/upload-logo',
			getAccessToken,
			{
				form,
				fallback: LOGO_UPLOAD_FAILED,
			},
		);
		if (!result.ok) {
			setState({ kind: 'failed', type, error: result.error });
			return;
		}
		setState({ kind: 'done', type, url: result.data.url, until: expiresIn(LOGO_CLEAR_MS) });
		if (result.data.publish) publishRequested();
		await reloadConfig().catch(() => {});
	}

	if (!can(user.role, 'Upload Logos')) return null;
	return (
		<div className="ops-cards">
			{LOGO_TYPES.map((type) => {
				const id = `${ids}-${type}`;
				const current =
					state.kind === 'done' && state.type === type ? state.url : config.logo[type];
				return (
					<section key={type} className="ops-card" aria-labelledby={`${id}-title`}>
						<h3 id={`${id}-title`}>{LOGO_LABELS[type]}</h3>
						<div className="ops-logo-preview">
							{current ? (
								<img src={current} alt={`Current ${LOGO_LABELS[type].toLowerCase()}`} />
							) : (
								<p>No {LOGO_LABELS[type].toLowerCase()} yet</p>
							)}
						</div>
						<div className="admin-field">
							<label htmlFor={id}>Upload {LOGO_LABELS[type].toLowerCase()}</label>
							<input
								id={id}
								ref={(el) => {
									if (el) inputs.current.set(type, el);
									else inputs.current.delete(type);
								}}
								type="file"
								accept={acceptFor(type)}
								disabled={state.kind === 'uploading'}
								aria-describedby={`${id}-hint ${id}-status`}
								onChange={(event) => void upload(type, event.target.files?.[0])}
							/>
							<p id={`${id}-hint`} className="admin-field__hint">
								{HINTS[type]}
							</p>
						</div>
						<div id={`${id}-status`} role="status" aria-live="polite">
							{state.kind === 'uploading' && state.type === type && <p>Uploading...</p>}
							{state.kind === 'done' && state.type === type && (
								<p className="admin-saved">Logo uploaded</p>
							)}
						</div>
						<div role="alert">
							{state.kind === 'failed' && state.type === type && (
								<p className="admin-banner admin-banner--error">{state.error}</p>
							)}
						</div>
					</section>
				);
			})}
		</div>
	);
}
