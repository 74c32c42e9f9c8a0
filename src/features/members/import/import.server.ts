import type { Json, RowUpdate, SupabaseClient } from '../../../lib/database.ts';
import { collectChange } from '../../publish/publish.server.ts';
import { getCurrentTenant } from '../../../lib/tenant.server.ts';
import { fetchMemberExport, MemberSourceError, readSyncConfig } from '../sync/atlas.server.ts';
import {
	isMappingTarget,
	mapsId,
	resolveMapping,
	type Mapping,
	type MappingTarget,
} from './fields.ts';
import {
	confirmDecision,
	countDecision,
	decideRow,
	documentToInput,
	duplicateDecision,
	emptyCounts,
	formatSummary,
	IMPORT_JOB_COLUMNS,
	missingDecision,
	repeatedDecision,
	rowProfileId,
	type CandidateBusiness,
	type ExistingBusiness,
	type HeaderInfo,
	type ImportJob,
	type RowDecision,
	type TableRow,
} from './import.ts';
import { getServiceClient, readClientEnv } from '../../../lib/supabase.server.ts';
import { IMPORT_LIMITS } from './limits.ts';
import { readTable, UnreadableFileError, type Table } from './read.server.ts';
import { cityKey, DirectoryIndex, nameKey, type DirectoryEntry, type RowKeys } from './match.ts';

/**
 * The import pipeline on the server: the background function claims a job, reads its file (or
 * the membership system's export), maps the columns, makes the dry run (one member_import_rows
 * row per business, progress in member_imports as it goes) and, when a person asked for it (or
 * the scheduled sync found nothing wrong), applies it in one transaction and collects it for the
 * chamber's publish window (one publish with members' changes, at most once per window).
 * `npm run tenant:import -- --dry-run` makes the same dry run without a job (dryRun()).
 */

export const IMPORTS_BUCKET = 'imports';
/** Rows compared per round trip to the database. */
const BATCH = 1000;
/** Progress is written at most this often. */
const PROGRESS_MS = 500;

// --- The directory as the dry run sees it --------------------------------------------------------

interface DocumentRow {
	id: string;
	weblink_profile_id: string;
	version: number;
	removed: boolean;
	document: Record<string, unknown>;
	overrides: string[];
}

/** The chamber's businesses with these membership-system ids. */
async function existingBusinesses(
	service: SupabaseClient,
	tenantId: string,
	ids: string[],
): Promise<Map<string, ExistingBusiness>> {
	const found = new Map<string, ExistingBusiness>();
	if (ids.length === 0) return found;
	const { data, error } = await service.rpc('member_import_documents', {
		p_tenant_id: tenantId,
		p_weblink_ids: ids,
	});
	if (error) throw new Error(`Failed to read the businesses: ${error.message}`, { cause: error });
	for (const row of data as DocumentRow[]) {
		found.set(row.weblink_profile_id, {
			id: row.id,
			version: row.version,
			removed: row.removed,
			document: documentToInput(row.document),
			overrides: row.overrides,
		});
	}
	return found;
}

interface ListedBusiness {
	id: string;
	weblink_profile_id: string;
	report_name: string;
	version: number;
}

/**
 * The chamber's businesses that came from the membership system and are not removed (those staff
 * added here, 'local-…', are never missing from a file).
 */
async function membershipBusinesses(
	service: SupabaseClient,
	tenantId: string,
): Promise<ListedBusiness[]> {
	const all: ListedBusiness[] = [];
	let after = '00000000-0000-0000-0000-000000000000';
	for (;;) {
		const { data, error } = await service
			.from('profiles')
			.select('id, weblink_profile_id, report_name, version')
			.eq('tenant_id', tenantId)
			.is('removed_at', null)
			.not('weblink_profile_id', 'like', 'local-%')
			.gt('id', after)
			.order('id')
			.limit(1000)
			.overrideTypes<ListedBusiness[], { merge: false }>();
		if (error) throw new Error(`Failed to list the businesses: ${error.message}`, { cause: error });
		all.push(...data);
		if (data.length < 1000) return all;
		after = data.at(-1)!.id;
	}
}

async function savedMappings(
	service: SupabaseClient,
	tenantId: string,
): Promise<Map<string, MappingTarget | ''>> {
	const { data, error } = await service
		.from('member_import_mappings')
		.select('header, field')
		.eq('tenant_id', tenantId)
		.overrideTypes<{ header: string; field: string }[], { merge: false }>();
	if (error)
		throw new Error(`Failed to read the saved mappings: ${error.message}`, { cause: error });
	const saved = new Map<string, MappingTarget | ''>();
	for (const row of data) {
		if (row.field === '' || isMappingTarget(row.field)) saved.set(row.header, row.field);
	}
	return saved;
}

// --- The dry run ---------------------------------------------------------------------------------

/** Every business of the chamber (removed ones too: a file does not add them again), as matched. */
async function directoryEntries(
	service: SupabaseClient,
	tenantId: string,
): Promise<DirectoryEntry[]> {
	const all: DirectoryEntry[] = [];
	let after = '00000000-0000-0000-0000-000000000000';
	for (;;) {
		const { data, error } = await service
			.from('profiles')
			.select('id, weblink_profile_id, report_name, city, email, website')
			.eq('tenant_id', tenantId)
			.gt('id', after)
			.order('id')
			.limit(1000);
		if (error) throw new Error(`Failed to list the businesses: ${error.message}`, { cause: error });
		for (const b of data) {
			all.push({
				id: b.id,
				weblinkProfileId: b.weblink_profile_id,
				name: b.report_name,
				city: b.city,
				email: b.email,
				website: b.website,
			});
		}
		if (data.length < 1000) return all;
		after = data.at(-1)!.id;
	}
}

/** What the matching rules read of a row: the cells of the columns mapped to their fields. */
function rowKeys(row: TableRow, mapping: Mapping): RowKeys {
	const keys: RowKeys = {};
	const text = (value: unknown) =>
		value === null || value === undefined || typeof value === 'object' ? '' : String(value);
	for (const [column, target] of Object.entries(mapping)) {
		const value = text(row.cells[column]);
		if (target === 'email') keys.email = value;
		else if (target === 'website') keys.website = value;
		else if (target === 'report_name') keys.name = value;
		else if (target === 'city') keys.city = value;
	}
	return keys;
}

/**
 * The dry run of a file without membership-system ids: each row matched to a business by the
 * rules of match.ts, then compared with it (or added, or left to a person to confirm).
 */
async function* dryRunByRules(
	service: SupabaseClient,
	tenantId: string,
	rows: readonly TableRow[],
	mapping: Mapping,
): AsyncGenerator<RowDecision[], void, undefined> {
	const index = new DirectoryIndex(await directoryEntries(service, tenantId));
	/** Business id → the row that matched it. */
	const taken = new Map<string, number>();
	/** Businesses a row to confirm may be: never missing from the file. */
	const pending = new Set<string>();
	/** A new business's name and city → the row that adds it. */
	const added = new Map<string, number>();
	for (let start = 0; start < rows.length; start += BATCH) {
		const batch = rows.slice(start, start + BATCH);
		const results = batch.map((row) => {
			const keys = rowKeys(row, mapping);
			const result = index.matchRow(keys, (id) => taken.has(id));
			let repeats: number | undefined;
			if (result.kind === 'match') {
				repeats = taken.get(result.entry.id);
				if (repeats === undefined) taken.set(result.entry.id, row.rowNumber);
			} else if (result.kind === 'confirm') {
				for (const c of result.candidates) pending.add(c.entry.id);
			}
			return { keys, result, repeats };
		});
		const named = results.flatMap(({ result }) =>
			result.kind === 'match'
				? [result.entry.weblinkProfileId]
				: result.kind === 'confirm'
					? result.candidates.map((c) => c.entry.weblinkProfileId)
					: [],
		);
		const existing = await existingBusinesses(service, tenantId, [...new Set(named)]);
		yield batch.map((row, i): RowDecision => {
			const { keys, result, repeats } = results[i]!;
			if (result.kind === 'match') {
				if (repeats !== undefined) return repeatedDecision(row, keys.name ?? null, repeats);
				const business = existing.get(result.entry.weblinkProfileId) ?? null;
				const decision = decideRow(row, mapping, business, { byId: false });
				return decision.action === 'invalid' ? decision : { ...decision, matchedOn: result.on };
			}
			if (result.kind === 'confirm') {
				const choices = result.candidates.flatMap((c): CandidateBusiness[] => {
					const business = existing.get(c.entry.weblinkProfileId);
					return business ? [{ entry: c.entry, on: c.on, existing: business }] : [];
				});
				return confirmDecision(row, mapping, choices);
			}
			const decision = decideRow(row, mapping, null, { byId: false });
			if (decision.action === 'add') {
				const key = `${nameKey(decision.name)}|${cityKey(keys.city)}`;
				const first = added.get(key);
				if (first !== undefined) return repeatedDecision(row, decision.name, first);
				added.set(key, row.rowNumber);
			}
			return decision;
		});
	}
	const missing = (await membershipBusinesses(service, tenantId))
		.filter((b) => !taken.has(b.id) && !pending.has(b.id))
		.map(missingDecision);
	for (let start = 0; start < missing.length; start += BATCH) {
		yield missing.slice(start, start + BATCH);
	}
}

/**
 * Compares a table's rows with the chamber's directory: every row's decision, then one for each
 * business the file lacks. `whole`: each row is the whole business (the tenant file in
 * `tenant:import`), not only the fields the file has.
 */
export async function* dryRun(
	service: SupabaseClient,
	tenantId: string,
	rows: readonly TableRow[],
	mapping: Mapping,
	options: { whole?: boolean } = {},
): AsyncGenerator<RowDecision[], void, undefined> {
	if (!mapsId(mapping) && !options.whole) {
		yield* dryRunByRules(service, tenantId, rows, mapping);
		return;
	}
	const seen = new Map<string, number>();
	for (let start = 0; start < rows.length; start += BATCH) {
		const batch = rows.slice(start, start + BATCH);
		const ids = batch.map((row) => rowProfileId(row, mapping));
		const existing = await existingBusinesses(service, tenantId, [
			...new Set(ids.filter((id): id is string => id !== null)),
		]);
		const decisions = batch.map((row, i): RowDecision => {
			const id = ids[i];
			if (id != null) {
				const first = seen.get(id);
				if (first !== undefined) return duplicateDecision(row, id, first);
				seen.set(id, row.rowNumber);
			}
			const business = id == null ? null : (existing.get(id) ?? null);
			const decision = decideRow(row, mapping, business, options);
			return business && decision.action !== 'invalid'
				? { ...decision, matchedOn: 'id' }
				: decision;
		});
		yield decisions;
	}
	const missing = (await membershipBusinesses(service, tenantId))
		.filter((b) => !seen.has(b.weblink_profile_id))
		.map(missingDecision);
	for (let start = 0; start < missing.length; start += BATCH) {
		yield missing.slice(start, start + BATCH);
	}
}

// --- Jobs ----------------------------------------------------------------------------------------

/** The dry run's values are read from a file or the directory's documents: JSON by construction. */
const json = (value: unknown) => value as NonNullable<Json>;

async function updateJob(
	service: SupabaseClient,
	id: string,
	values: RowUpdate<'member_imports'>,
): Promise<void> {
	const { error } = await service
		.from('member_imports')
		.update({ ...values, updated_at: new Date().toISOString() })
		.eq('id', id);
	if (error) throw new Error(`Failed to update import ${id}: ${error.message}`, { cause: error });
}

async function storeDecisions(
	service: SupabaseClient,
	job: ImportJob,
	decisions: RowDecision[],
): Promise<void> {
	if (decisions.length === 0) return;
	const { error } = await service.from('member_import_rows').insert(
		decisions.map((d) => ({
			import_id: job.id,
			tenant_id: job.tenant_id,
			row_number: d.rowNumber,
			action: d.action,
			profile_id: d.profileId,
			weblink_profile_id: d.weblinkProfileId,
			name: d.name?.slice(0, 500) ?? null,
			base_version: d.baseVersion,
			record: json(d.record),
			changes: d.changes.length > 0 ? json(d.changes) : null,
			errors: d.errors.length > 0 ? json(d.errors) : null,
			matched_on: d.matchedOn ?? null,
			candidates: d.candidates ? json(d.candidates.map(storedCandidate)) : null,
		})),
	);
	if (error) throw new Error(`Failed to store the preview: ${error.message}`, { cause: error });
}

/** A choice of a row to confirm as the database stores it (confirm_member_import_row reads it). */
function storedCandidate(c: NonNullable<RowDecision['candidates']>[number]) {
	return {
		choice: c.profileId ?? 'new',
		profile_id: c.profileId,
		weblink_profile_id: c.weblinkProfileId,
		name: c.name,
		city: c.city,
		email: c.email,
		website: c.website,
		on: c.on,
		action: c.action,
		base_version: c.baseVersion,
		record: c.record,
		changes: c.changes.length > 0 ? c.changes : null,
	};
}

/** The headings of a table with a few values each and the field each fills now, for the mapping screen. */
function describeHeaders(table: Table, mapping: Mapping): HeaderInfo[] {
	return table.headers.map((header) => {
		const samples: string[] = [];
		for (const row of table.rows) {
			const value = row.cells[header];
			const text =
				value instanceof Date
					? value.toISOString().slice(0, 10)
					: typeof value === 'object'
						? ''
						: String(value ?? '').trim();
			if (text) samples.push(text.slice(0, 80));
			if (samples.length === 3) break;
		}
		return { header, samples, field: header in mapping ? mapping[header]! : null };
	});
}

/**
 * The uploaded file as a stream, with the import's time to read it (the API's other calls keep
 * their short deadline); the reader counts its bytes against the size limit.
 */
async function downloadUpload(storagePath: string): Promise<ReadableStream<Uint8Array>> {
	const files = getServiceClient({ ...readClientEnv(), SUPABASE_TIMEOUT_MS: IMPORT_LIMITS.readMs });
	const { data, error } = await files.storage.from(IMPORTS_BUCKET).download(storagePath).asStream();
	if (error || !data) {
		console.error(`[member-import] could not download ${storagePath}: ${error?.message}`);
		throw new UnreadableFileError('The uploaded file could not be read.');
	}
	return data as ReadableStream<Uint8Array>;
}

async function readSource(service: SupabaseClient, job: ImportJob): Promise<Table> {
	if (job.kind === 'sync') {
		const config = readSyncConfig();
		if (!config) {
			throw new MemberSourceError('No membership system is set up (ATLAS_MEMBERS_URL is not set).');
		}
		const file = await fetchMemberExport(config);
		return readTable(file.bytes, file.name);
	}
	const { data: path, error: pathError } = await service
		.from('member_imports')
		.select('storage_path')
		.eq('id', job.id)
		.single<{ storage_path: string | null }>();
	if (pathError || !path.storage_path) throw new UnreadableFileError('The uploaded file is gone.');
	return readTable(await downloadUpload(path.storage_path), job.source);
}

async function preview(
	service: SupabaseClient,
	job: ImportJob,
): Promise<'previewed' | 'apply' | 'waiting'> {
	const table = await readSource(service, job);
	await updateJob(service, job.id, {
		rows_total: table.rows.length,
		rows_read: table.rows.length,
		rows_validated: 0,
	});
	const resolved = resolveMapping(
		table.headers,
		await savedMappings(service, job.tenant_id),
		job.mapping,
	);
	if (resolved.unknown.length > 0) {
		if (job.auto_apply) {
			throw new MemberSourceError(
				`The export has columns no mapping covers (${resolved.unknown.join(', ')}): run "Sync now" in the panel to map them.`,
			);
		}
		await updateJob(service, job.id, {
			state: 'needs_mapping',
			headers: json(describeHeaders(table, resolved.mapping)),
			error: null,
		});
		return 'waiting';
	}
	if (job.auto_apply && !resolved.byId) {
		// The membership system's export always has its ids; without them a sync would guess.
		throw new MemberSourceError(
			'The export has no column with the membership-system id of each member.',
		);
	}
	await updateJob(service, job.id, {
		state: 'validating',
		mapping: resolved.mapping,
		headers: null,
	});
	await service.from('member_import_rows').delete().eq('import_id', job.id);
	const counts = emptyCounts();
	if (!resolved.byId) counts.matched = {};
	let validated = 0;
	let reported = Date.now();
	for await (const decisions of dryRun(service, job.tenant_id, table.rows, resolved.mapping)) {
		await storeDecisions(service, job, decisions);
		for (const d of decisions) {
			countDecision(counts, d);
			if (d.rowNumber !== null) validated += 1;
		}
		if (Date.now() - reported >= PROGRESS_MS) {
			reported = Date.now();
			await updateJob(service, job.id, { rows_validated: validated });
		}
	}
	// The scheduled sync applies its own dry run when no row is invalid.
	const applyNow = job.auto_apply && counts.invalid === 0 && !counts.confirm;
	await updateJob(service, job.id, {
		state: applyNow ? 'apply_requested' : 'previewed',
		...(applyNow ? { missing_action: readSyncConfig()?.missing ?? 'keep' } : {}),
		rows_validated: validated,
		counts: json(counts),
		previewed_at: new Date().toISOString(),
	});
	console.log(`[member-import] ${job.id} (${job.source}): ${formatSummary(counts)}`);
	return applyNow ? 'apply' : 'previewed';
}

async function removeFile(service: SupabaseClient, id: string): Promise<void> {
	const { data } = await service
		.from('member_imports')
		.select('storage_path')
		.eq('id', id)
		.maybeSingle<{ storage_path: string | null }>();
	if (!data?.storage_path) return;
	const { error } = await service.storage.from(IMPORTS_BUCKET).remove([data.storage_path]);
	if (error)
		console.error(`[member-import] could not remove ${data.storage_path}: ${error.message}`);
}

async function apply(service: SupabaseClient, job: ImportJob): Promise<void> {
	const { data, error } = await service.rpc('apply_member_import', { p_import_id: job.id });
	if (error) {
		throw new ImportFailure(
			error.code === 'PT409' ? error.message : `The changes could not be applied: ${error.message}`,
		);
	}
	const result = data;
	await removeFile(service, job.id);
	if (result.written === 0 && !result.unpublished) return;
	// This deployment publishes its own chamber; a super_admin's import into another chamber is
	// published by that chamber's deployment.
	const current = await getCurrentTenant().catch(() => null);
	if (current?.id !== job.tenant_id) return;
	const who = job.applied_by_email ?? job.requested_by_email;
	// Imports and syncs wait for the chamber's publish window, with members' changes: no build of
	// their own (a staff publish before the mark takes them along).
	const written = result.written + (result.unpublished ?? 0);
	const { dueAt } = await collectChange({
		client: service,
		tenantId: job.tenant_id,
		source: job.kind === 'sync' ? 'sync' : 'import',
		summary: `${job.kind === 'sync' ? 'Member sync' : 'Member import'}${who && job.kind === 'file' ? ` by ${who}` : ''}: ${written} ${written === 1 ? 'business' : 'businesses'}`,
	});
	await updateJob(service, job.id, { live_by: dueAt });
}

/** A failure whose message is meant for the person (shown in the panel as it is). */
class ImportFailure extends Error {}

function failureMessage(error: unknown): string {
	if (
		error instanceof ImportFailure ||
		error instanceof UnreadableFileError ||
		error instanceof MemberSourceError
	) {
		return error.message;
	}
	return 'Something went wrong on our side while importing. Please try again later.';
}

async function claim(service: SupabaseClient, id: string): Promise<ImportJob | null> {
	const { data, error } = await service.rpc('claim_member_import', { p_import_id: id });
	if (error) throw new Error(`Failed to claim import ${id}: ${error.message}`, { cause: error });
	const [claimed] = data as { id: string }[];
	if (!claimed) return null;
	const { data: job, error: readError } = await service
		.from('member_imports')
		.select(IMPORT_JOB_COLUMNS)
		.eq('id', id)
		.single<ImportJob>();
	if (readError) throw new Error(`Failed to read import ${id}: ${readError.message}`);
	return job;
}

/**
 * Works an import as far as it can go now: reads and previews a queued one (and applies it when
 * the scheduled sync asked for that and nothing was invalid), applies one a person asked to
 * apply. A job another invocation took, or in any other state, is left alone. Failures end in
 * state failed, with a message for the person; nothing is thrown.
 */
export async function runImportJob(service: SupabaseClient, id: string): Promise<void> {
	let job: ImportJob | null = null;
	try {
		job = await claim(service, id);
		if (!job) return;
		if (job.state === 'reading') {
			if ((await preview(service, job)) !== 'apply') return;
			job = await claim(service, id);
			if (!job) return;
		}
		await apply(service, job);
	} catch (error) {
		if (!(
			error instanceof ImportFailure ||
			error instanceof UnreadableFileError ||
			error instanceof MemberSourceError
		)) {
			console.error(`[member-import] ${id} failed:`, error);
		}
		if (!job) return;
		await updateJob(service, id, { state: 'failed', error: failureMessage(error) }).catch(
			(cause: unknown) =>
				console.error(`[member-import] could not record the failure of ${id}:`, cause),
		);
		if (job.state === 'applying') await removeFile(service, id).catch(() => {});
	}
}
