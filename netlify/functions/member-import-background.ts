import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { runImportJob } from '../../src/features/members/import/import.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';

export const config: Config = { path: '/api/member-import-background' };

const bodySchema = z.object({ id: z.uuid() });

/**
 * The member import's background function (the `-background` name makes Netlify answer 202 at
 * once and run it for up to 15 minutes; `npm start`'s server does the same). Body `{id}`. It only
 * takes an import that a chamber's admin queued (or the scheduled sync) and that no other run
 * took, so calling it again, or for a made-up id, does nothing.
 */
export default async (req: Request): Promise<void> => {
	if (req.method !== 'POST') return;
	const body = bodySchema.safeParse(await req.json().catch(() => null));
	if (!body.success) {
		console.warn('[member-import-background] a request without an import id');
		return;
	}
	await runImportJob(getServiceClient(), body.data.id);
};
