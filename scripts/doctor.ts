/**
 * npm run doctor: checks a deployment's configuration and says, one line each, what is right and
 * how to fix what is not (✗), and the settings left to their defaults that a deployment should
 * choose (!: the publish budget, the publish window); exits 1 when anything is wrong. With SUPABASE_URL and both keys it checks
 * that project (run it with the Netlify site's variables); otherwise the local stack (npm start's,
 * or one it starts for the check, in embedded or postgres mode).
 */
import { readStackEnv } from '../src/lib/env.server.ts';
import { formatFinding, runDoctor, type DoctorTarget } from './doctor/checks.ts';
import { runMain } from './lib/main.ts';
import { withStack } from './stack/index.ts';

runMain(async () => {
	const env = readStackEnv();
	const tenant = process.env.TENANT || 'demo';
	const check = async (target: DoctorTarget) => {
		const findings = await runDoctor(target);
		for (const finding of findings) console.log(formatFinding(finding));
		const wrong = findings.filter((f) => !f.ok).length;
		const warned = findings.filter((f) => f.warn).length;
		console.log(
			wrong
				? `\n${wrong} to put right.`
				: warned
					? `\nEverything checked works; ${warned} ${warned === 1 ? 'setting' : 'settings'} to choose (!).`
					: '\nEverything checked is right.',
		);
		if (wrong) process.exitCode = 1;
	};
	if (env.mode === 'hosted' && env.hosted) {
		await check({
			mode: 'hosted',
			supabaseUrl: env.hosted.url,
			anonKey: env.hosted.anonKey,
			serviceKey: env.hosted.serviceKey,
			tenant,
			env: process.env,
		});
		return;
	}
	await withStack(
		(stack) =>
			check({
				mode: stack.mode,
				supabaseUrl: stack.supabaseUrl,
				anonKey: stack.anonKey,
				serviceKey: stack.serviceKey,
				tenant,
				env: { ...process.env, ...stack.env },
			}),
		{ quiet: true },
	);
});
