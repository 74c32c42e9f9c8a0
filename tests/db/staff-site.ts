import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';
import { startNetlifyStandin, type NetlifyStandin } from '../support/netlify-api-standin.ts';
import { db, stack } from './clients.ts';
import { removeStaffChambers, type StaffChamber } from './fixtures.ts';

// The staff functions under test: chambers with their staff signed in, the functions serving the
// first chamber over real HTTP in the local Netlify server, and a stand-in of Netlify's API that
// receives the build hooks and purges their changes cause.

export interface StaffSite<Chambers> {
	chambers: Chambers;
	netlify: NetlifyStandin;
	server: FunctionServer;
	/**
	 * Forgets the chamber's publishes and what the stand-in received: a publish nobody builds
	 * stays queued and later ones join it, so each test starts without one.
	 */
	reset(): Promise<void>;
	/** Stops the servers, removes the chambers and their staff, and ends `db`'s connection. */
	close(): Promise<void>;
}

/**
 * Connects `db`, starts the stand-in, imports the chambers (`chambers`: importChamber or
 * importStaffChambers, their staff's e-mails at `domain`) and starts the functions for the first
 * one, with the stand-in's environment and `env`.
 */
export async function startStaffSite<Chambers extends StaffChamber<string>>(options: {
	domain: string;
	chambers: () => Promise<Chambers>;
	env?: Record<string, string | undefined>;
}): Promise<StaffSite<Chambers>> {
	await db.connect();
	const netlify = await startNetlifyStandin();
	let chambers: Chambers | undefined;
	let server: FunctionServer | undefined;
	const close = async () => {
		await server?.close();
		await netlify.close();
		await removeStaffChambers(db, chambers, options.domain);
		await db.end();
	};
	try {
		chambers = await options.chambers();
		server = await startFunctionServer(stack, {
			tenant: chambers.slug,
			env: { ...netlify.env, ...options.env },
		});
	} catch (error) {
		await close();
		throw error;
	}
	const { tenantId } = chambers;
	return {
		chambers,
		netlify,
		server,
		async reset() {
			await db.query('delete from public.publishes where tenant_id = $1', [tenantId]);
			netlify.reset();
		},
		close,
	};
}
