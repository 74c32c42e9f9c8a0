/** npm run dev: the data stack plus `astro dev` (functions are served by `npm start`). */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { onShutdown, runMain } from './lib/main.ts';
import { ensureSeededStack } from './lib/seeded-stack.ts';
import { checkTenant, ROOT } from './lib/site.ts';
import type { Stack } from './stack/index.ts';

runMain(
	async () => {
		const tenant = process.env.TENANT || 'demo';
		const stacks: Stack[] = [];
		onShutdown(async () => {
			for (const started of stacks) await started.stop();
		});
		const stack = await ensureSeededStack((started) => stacks.push(started));
		await checkTenant(stack, tenant);
		const child = spawn(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev'], {
			cwd: ROOT,
			stdio: 'inherit',
			env: { ...process.env, ...stack.env, TENANT: tenant },
		});
		onShutdown(async () => {
			child.kill('SIGTERM');
		});
		child.on('exit', (code) => process.kill(process.pid, code ? 'SIGTERM' : 'SIGINT'));
	},
	{ keepAlive: true },
);
