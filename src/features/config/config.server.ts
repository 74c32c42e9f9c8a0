import type { SupabaseClient } from '../../lib/database.ts';
import { getCacheVersion } from '../../lib/cache-versions.server.ts';
import { isUnavailable } from '../../lib/http.server.ts';
import { getServiceClient, readClientEnv } from '../../lib/supabase.server.ts';
import {
	ConfigError,
	configFromRow,
	type ChamberConfig,
	type StoredChamberConfigRow,
} from './config.ts';
import { PLACEHOLDER_CONFIG } from './placeholder.ts';

/**
 * The chamber configuration of a tenant. No row (PostgREST's PGRST116) means a chamber not set
 * up yet: it gets the placeholder, with a warning. Any other failure, or a row that does not
 * validate, throws, so a build never ships a half-read configuration.
 */
export async function getChamberConfig(
	client: SupabaseClient,
	tenantId: string,
): Promise<ChamberConfig> {
	const { data, error } = await client
		.from('chamber_config')
		.select('*')
		.eq('tenant_id', tenantId)
		.single();
	if (error?.code === 'PGRST116') {
		console.warn(
			`No chamber configuration for tenant ${tenantId}: using the placeholder configuration`,
		);
		return PLACEHOLDER_CONFIG;
	}
	if (error)
		throw new Error(`Failed to load chamber configuration: ${error.message}`, { cause: error });
	return configFromRow(data, `chamber_config row of tenant ${tenantId}`);
}

interface CachedConfig {
	/** The tenant's config cache version the config was read under. */
	version: number;
	config: Promise<ChamberConfig>;
}

/** Per function instance (module scope): tenant id → the config read under its version. */
const cachedConfigs = new Map<string, CachedConfig>();

/**
 * The chamber configuration for a function call: read once per function instance and reused
 * while the tenant's config cache version (cache_versions, type config) stays the same. Each call
 * reads only that version (one small row, no validation), so a change published with a version
 * bump is seen on the next call, and an unchanged version costs no configuration read. A failed
 * read is not kept. Every real change of a chamber_config row bumps that version in the same
 * transaction (the trigger chamber_config_bump_version), whoever makes it. The build reads getChamberConfig
 * directly.
 */
export async function getCachedChamberConfig(
	client: SupabaseClient,
	tenantId: string,
): Promise<ChamberConfig> {
	let version: number;
	try {
		version = await getCacheVersion(client, tenantId, 'config');
	} catch (error) {
		return lastReadWhenUnavailable(tenantId, error);
	}
	const cached = cachedConfigs.get(tenantId);
	if (cached?.version === version) return cached.config;
	const entry: CachedConfig = {
		version,
		config: getChamberConfig(client, tenantId).catch((error: unknown) =>
			error instanceof ConfigError
				? lastValidConfig(tenantId, error)
				: lastReadWhenUnavailable(tenantId, error),
		),
	};
	cachedConfigs.set(tenantId, entry);
	entry.config.then(
		(config) => void lastRead.set(tenantId, config),
		() => {
			if (cachedConfigs.get(tenantId) === entry) cachedConfigs.delete(tenantId);
		},
	);
	return entry.config;
}

/**
 * The database did not answer in time: the configuration this instance read last serves until
 * it does (a function keeps answering from what it knows); without one, the failure stands.
 */
function lastReadWhenUnavailable(tenantId: string, error: unknown): ChamberConfig {
	const remembered = lastRead.get(tenantId);
	if (!remembered || !isUnavailable(error)) throw error;
	return remembered;
}

/**
 * A stored configuration that does not validate never takes the site down: the functions keep
 * serving the last valid one (this instance's last read, else the newest live publish's
 * snapshot) and log what is wrong; the admin panel shows the fields and lets an admin fix them.
 * The database refuses such values, so this takes one written past it (by hand, or before it
 * checked them).
 */
async function lastValidConfig(tenantId: string, problem: ConfigError): Promise<ChamberConfig> {
	const where = problem.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
	const remembered = lastRead.get(tenantId);
	if (remembered) {
		console.error(
			`[config] tenant ${tenantId}: invalid configuration (${where}); serving the last valid one`,
		);
		return remembered;
	}
	const { data } = await getServiceClient(readClientEnv())
		.from('publishes')
		.select('config_snapshot')
		.eq('tenant_id', tenantId)
		.eq('state', 'live')
		.not('config_snapshot', 'is', null)
		.order('finished_at', { ascending: false })
		.limit(20);
	for (const row of (data ?? []) as { config_snapshot: StoredChamberConfigRow }[]) {
		try {
			const config = configFromRow(
				row.config_snapshot,
				`the last published configuration of tenant ${tenantId}`,
			);
			console.error(
				`[config] tenant ${tenantId}: invalid configuration (${where}); serving the last published one`,
			);
			return config;
		} catch {
			// An older snapshot may be valid where a newer one is not.
		}
	}
	throw problem;
}

/** Per function instance: tenant id → the last configuration getCachedChamberConfig read. */
const lastRead = new Map<string, ChamberConfig>();

/**
 * The last configuration this function instance read for the tenant, even if reading it again
 * fails now: the fallback error page (src/pages/500.astro) keeps the chamber's header and footer
 * when the failure is the configuration or the database itself. Undefined before the first read.
 */
export function lastReadChamberConfig(tenantId: string): ChamberConfig | undefined {
	return lastRead.get(tenantId);
}
