import type { SupabaseClient } from '../../lib/database.ts';
import { HttpError } from '../../lib/http.server.ts';
import { readClientEnv } from '../../lib/supabase.server.ts';
import type { AdminSession } from '../auth/auth.server.ts';
import { refusal } from '../members/refusal.server.ts';
import { getTenantBySlugOrNull, type TenantRow } from '../tenants/lookup.server.ts';

/**
 * The server side of a staff tab's versioned records (the Members and Events tabs): the chamber
 * a call names, a record's id (a 404 before the database is asked), and its history from the
 * audit log. Every read and write is the user's own supabase-js client, so the database judges
 * each call as it would a direct one. Part of the versioned-record kit.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A record's id from the address: a uuid, or a 404 saying `notFound`. */
export function recordId(id: string | undefined, notFound: string): string {
	if (!id || !UUID.test(id)) throw new HttpError(404, notFound);
	return id.toLowerCase();
}

/** The chamber a call names (`?chamber=`), or the deployment's own; 404 for an unknown one. */
export async function chamberOf(session: AdminSession, slug?: string): Promise<TenantRow> {
	const key = slug ?? readClientEnv().TENANT;
	const tenant = await getTenantBySlugOrNull(session.client, key);
	if (!tenant) throw new HttpError(404, `No chamber "${key}"`);
	return tenant;
}

/** How many changes of a record its history shows, newest first. */
const HISTORY_SIZE = 50;

interface AuditRow {
	id: number;
	at: string;
	actor_email: string | null;
	actor_role: string;
	field: string;
	old_value: unknown;
	new_value: unknown;
}

export interface AuditEntry {
	id: number;
	at: string;
	actor: string;
	field: string;
	oldValue: unknown;
	newValue: unknown;
}

/**
 * A record's changes, newest first, from the audit log (row-level security: the chamber's admins
 * and super_admins read it). `column` names the record (business_id, event_id); the server's own
 * writes are named `serverActor` (the import, the calendar feed).
 */
export async function auditHistory(
	client: SupabaseClient,
	tenantId: string,
	column: 'business_id' | 'event_id',
	id: string,
	serverActor: string,
): Promise<AuditEntry[]> {
	const { data, error } = await client
		.from('audit_log')
		.select('id, at, actor_email, actor_role, field, old_value, new_value')
		.eq('tenant_id', tenantId)
		.eq(column, id)
		.order('at', { ascending: false })
		.order('id', { ascending: false })
		.limit(HISTORY_SIZE)
		.overrideTypes<AuditRow[], { merge: false }>();
	if (error) throw refusal(error, 'Reading the history');
	return data.map((row) => ({
		id: Number(row.id),
		at: row.at,
		actor: row.actor_email ?? (row.actor_role === 'service_role' ? serverActor : row.actor_role),
		field: row.field,
		oldValue: row.old_value,
		newValue: row.new_value,
	}));
}
