/** npm run build: the static site and functions of TENANT (default demo), read from the database. */
import { withStack } from './stack/index.ts';
import { runMain } from './lib/main.ts';
import { buildSite, checkTenant } from './lib/site.ts';

runMain(async () => {
	const tenant = process.env.TENANT || 'demo';
	await withStack(async (stack) => {
		await checkTenant(stack, tenant);
		await buildSite(stack, tenant);
	});
});
