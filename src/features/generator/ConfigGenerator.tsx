import { useStore } from '@nanostores/react';
import {
	useEffect,
	useId,
	useMemo,
	useRef,
	useState,
	type ChangeEvent,
	type KeyboardEvent,
} from 'react';
import {
	buildConfig,
	buildTenantFile,
	configurationCode,
	downloadAllText,
	draftJson,
	environmentText,
	GENERATOR_TABS,
	progress,
	readDraft,
	stylingCode,
	type FieldError,
	type FieldSpec,
	type GeneratorTab,
	themeOf,
} from './generator.ts';
import { fieldLabel } from '../admin/config/labels.ts';
import { downloadFile } from '../admin/download.ts';
import { ThemeContrast } from '../config/ThemeContrast.tsx';
import type { AdminUser } from '../auth/auth.ts';
import { browserClient, type PublicSupabase } from '../auth/browser.ts';
import { accessToken, LOGIN_PATH, verifySession } from './session.ts';
import { $form, $tab, editField } from './store.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import './ConfigGenerator.css';

/** Copy feedback lasts 2 seconds. */
const COPIED_MS = 2000;

interface Props {
	supabase: PublicSupabase;
}

type Guard = { state: 'checking' } | { state: 'allowed'; user: AdminUser };

function ConfigGenerator({ supabase: settings }: Props) {
	const [guard, setGuard] = useState<Guard>({ state: 'checking' });
	const supabase = useMemo(() => browserClient(settings), [settings]);

	useEffect(() => {
		let live = true;
		void verifySession(supabase).then((user) => {
			if (!live) return;
			if (!user) {
				window.location.assign(LOGIN_PATH);
				return;
			}
			setGuard({ state: 'allowed', user });
		});
		return () => {
			live = false;
		};
	}, [supabase]);

	if (guard.state === 'checking') {
		return (
			<p className="gen-status" role="status">
				Checking your session...
			</p>
		);
	}
	return <Generator user={guard.user} getToken={() => accessToken(supabase)} />;
}

function Generator({
	user,
	getToken,
}: {
	user: AdminUser;
	getToken: () => Promise<string | null>;
}) {
	const form = useStore($form);
	const tab = useStore($tab);
	const done = progress(form);
	const checked = useMemo(() => buildConfig(form), [form]);
	const errors = checked.ok ? [] : checked.errors;
	const [notice, setNotice] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);
	const slug = form.slug?.trim() || 'new-chamber';

	return (
		<div className="gen">
			<header className="gen__header">
				<h1>Configuration Generator</h1>
				<p>
					Onboard a new chamber: fill in its identity, branding, contact details, links and texts.
					Signed in as {user.email}.
				</p>
				<div className="gen__progress">
					<label htmlFor="gen-progress">
						{done.filled} of {done.total} required fields
					</label>
					<progress id="gen-progress" max={100} value={done.percent}>
						{done.percent}%
					</progress>
					<span aria-hidden="true">{done.percent}%</span>
				</div>
			</header>

			<Tabs tab={tab} errors={errors} />

			<section className="gen__actions" aria-label="Drafts and files">
				<button
					type="button"
					onClick={() => downloadFile(`${slug}-draft.json`, draftJson(form), 'application/json')}
				>
					Save Draft (JSON)
				</button>
				<LoadDraft onLoaded={setNotice} />
				<button
					type="button"
					onClick={() =>
						downloadFile(`${slug}-configuration.txt`, downloadAllText(form), 'text/plain')
					}
				>
					Download All
				</button>
				<button
					type="button"
					onClick={() => {
						const file = buildTenantFile(form);
						if (!file.ok) setNotice({ kind: 'error', text: file.message });
						else {
							setNotice(null);
							downloadFile(`${slug}.json`, file.json, 'application/json');
						}
					}}
				>
					Download tenant file
				</button>
				{user.role === 'super_admin' && <CreateChamber getToken={getToken} onNotice={setNotice} />}
			</section>
			{notice && (
				<p
					className={`gen__notice gen__notice--${notice.kind}`}
					role={notice.kind === 'error' ? 'alert' : 'status'}
				>
					{notice.text}
				</p>
			)}

			<section className="gen__outputs" aria-label="Generated output">
				<Output title="Configuration code" text={configurationCode(form)} />
				<Output title="Styling configuration" text={stylingCode(form)} />
				<Output title="Environment variables" text={environmentText(form)} />
			</section>
		</div>
	);
}

function Tabs({ tab, errors }: { tab: GeneratorTab['id']; errors: FieldError[] }) {
	const ids = useId();
	const refs = useRef<Record<string, HTMLButtonElement | null>>({});
	const index = GENERATOR_TABS.findIndex((t) => t.id === tab);

	function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
		const moves: Record<string, number> = {
			ArrowRight: index + 1,
			ArrowLeft: index - 1,
			Home: 0,
			End: GENERATOR_TABS.length - 1,
		};
		const target = moves[event.key];
		if (target === undefined) return;
		event.preventDefault();
		const next = GENERATOR_TABS[(target + GENERATOR_TABS.length) % GENERATOR_TABS.length]!;
		$tab.set(next.id);
		refs.current[next.id]?.focus();
	}

	return (
		<div className="gen__tabs">
			<div role="tablist" aria-label="Configuration sections" onKeyDown={onKeyDown}>
				{GENERATOR_TABS.map((t) => (
					<button
						key={t.id}
						ref={(el) => {
							refs.current[t.id] = el;
						}}
						type="button"
						role="tab"
						id={`${ids}-tab-${t.id}`}
						aria-selected={t.id === tab}
						aria-controls={`${ids}-panel-${t.id}`}
						tabIndex={t.id === tab ? 0 : -1}
						onClick={() => $tab.set(t.id)}
					>
						{t.label}
					</button>
				))}
			</div>
			{GENERATOR_TABS.map((t) => (
				<div
					key={t.id}
					role="tabpanel"
					id={`${ids}-panel-${t.id}`}
					aria-labelledby={`${ids}-tab-${t.id}`}
					hidden={t.id !== tab}
					className="gen__panel"
				>
					{t.groups.map((group) => (
						<fieldset key={group.title} className="gen__group">
							<legend>{group.title}</legend>
							{group.fields.map((field) => (
								<Field
									key={field.path}
									field={field}
									error={errors.find((e) => e.path === field.path)?.message}
								/>
							))}
						</fieldset>
					))}
					{t.id === 'branding' && <BrandingContrast />}
				</div>
			))}
		</div>
	);
}

/** What the site will make of the colours entered, as the panel's Colours tab shows it. */
function BrandingContrast() {
	const form = useStore($form);
	// Under the page's h1: the generator's steps have no heading of their own.
	return <ThemeContrast source={themeOf(form)} fieldLabel={fieldLabel} headingLevel={2} />;
}

function Field({ field, error }: { field: FieldSpec; error?: string }) {
	const form = useStore($form);
	const id = useId();
	const value = form[field.path] ?? '';
	const described = [field.hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
	const common = {
		id,
		value,
		'aria-invalid': error ? true : undefined,
		'aria-describedby': described || undefined,
		required: field.required,
		onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
			editField(field.path, event.target.value),
	};
	let control;
	if (field.kind === 'select') {
		control = (
			<select {...common}>
				{field.options?.map((option) => (
					<option key={option} value={option}>
						{option}
					</option>
				))}
			</select>
		);
	} else if (field.kind === 'textarea') {
		control = <textarea rows={3} {...common} />;
	} else if (field.kind === 'color') {
		control = (
			<span className="gen__colour">
				<input
					type="color"
					aria-label={`${field.label} colour picker`}
					value={/^#[0-9a-fA-F]{6}$/.test(value) ? value : '#000000'}
					onChange={(event) => editField(field.path, event.target.value)}
				/>
				<input type="text" spellCheck={false} {...common} />
			</span>
		);
	} else {
		const type = { text: 'text', email: 'email', url: 'url', tel: 'tel', year: 'number' }[
			field.kind
		];
		control = (
			<input
				type={type}
				inputMode={field.kind === 'year' ? 'numeric' : undefined}
				autoComplete="off"
				{...common}
			/>
		);
	}
	return (
		<div className="gen__field">
			<label htmlFor={id}>
				{field.label}
				{field.required && (
					<span className="gen__required" aria-hidden="true">
						{' '}
						*
					</span>
				)}
			</label>
			{control}
			{field.hint && (
				<small id={`${id}-hint`} className="gen__hint">
					{field.hint}
				</small>
			)}
			{error && (
				<small id={`${id}-error`} className="gen__error">
					{error}
				</small>
			)}
		</div>
	);
}

function Output({ title, text }: { title: string; text: string }) {
	const [copied, setCopied] = useState(false);
	const id = useId();
	useEffect(() => {
		if (!copied) return;
		const timer = setTimeout(() => setCopied(false), COPIED_MS);
		return () => clearTimeout(timer);
	}, [copied]);
	return (
		<div className="gen__output">
			<div className="gen__output-head">
				<h2 id={id}>{title}</h2>
				<button
					type="button"
					aria-label={copied ? `${title} copied` : `Copy ${title.toLowerCase()}`}
					onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true))}
				>
					{copied ? 'Copied!' : 'Copy'}
				</button>
			</div>
			<pre aria-labelledby={id} tabIndex={0}>
				<code>{text}</code>
			</pre>
		</div>
	);
}

function LoadDraft({
	onLoaded,
}: {
	onLoaded: (notice: { kind: 'info' | 'error'; text: string } | null) => void;
}) {
	const id = useId();
	async function onChange(event: ChangeEvent<HTMLInputElement>) {
		const input = event.currentTarget;
		const file = input.files?.[0];
		input.value = '';
		if (!file) return;
		const result = readDraft(await file.text());
		if (!result.ok) {
			window.alert(result.error);
			return;
		}
		$form.set(result.form);
		onLoaded({
			kind: 'info',
			text: result.dropped.length
				? `Draft loaded. Left out (unknown or not valid): ${result.dropped.join(', ')}.`
				: 'Draft loaded.',
		});
	}
	return (
		<span className="gen__file">
			<label htmlFor={id} className="gen__file-label">
				Load Draft
			</label>
			<input id={id} type="file" accept="application/json,.json" onChange={onChange} />
		</span>
	);
}

function CreateChamber({
	getToken,
	onNotice,
}: {
	getToken: () => Promise<string | null>;
	onNotice: (notice: { kind: 'info' | 'error'; text: string } | null) => void;
}) {
	const form = useStore($form);
	const [busy, setBusy] = useState(false);

	async function create() {
		const file = buildTenantFile(form);
		if (!file.ok) {
			onNotice({ kind: 'error', text: file.message });
			return;
		}
		setBusy(true);
		onNotice({ kind: 'info', text: 'Creating the chamber…' });
		try {
			const token = await getToken();
			const response = await fetch('/api/admin/chambers', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token ?? ''}` },
				body: JSON.stringify({ tenantFile: file.file }),
			});
			const body = (await response.json().catch(() => null)) as {
				error?: string;
				panelUrl?: string;
				name?: string;
			} | null;
			if (!response.ok || !body?.panelUrl) {
				onNotice({ kind: 'error', text: body?.error ?? 'Failed to create the chamber' });
				return;
			}
			onNotice({ kind: 'info', text: `${body.name} was created. Opening its admin panel…` });
			window.location.assign(body.panelUrl);
		} catch {
			onNotice({ kind: 'error', text: 'Network error. Please try again.' });
		} finally {
			setBusy(false);
		}
	}

	return (
		<button type="button" className="gen__create" disabled={busy} onClick={create}>
			{busy ? 'Creating…' : 'Create chamber'}
		</button>
	);
}

export default withErrorBoundary('ConfigGenerator', ConfigGenerator);
