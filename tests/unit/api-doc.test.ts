import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';

/**
 * docs/api.md lists every function of netlify/functions with its route, methods and callers; this
 * holds the list to the code: the route from the function's `config`, the methods from what its
 * handler answers (a method it does not take gets a 405 naming the others in `Allow`), the callers
 * from its `authenticate()` call.
 */

const FUNCTIONS = join(import.meta.dirname, '../../netlify/functions');
const DOC = join(import.meta.dirname, '../../docs/api.md');

interface Row {
	route: string;
	methods: string;
	who: string;
}

async function documentedRows(): Promise<Map<string, Row>> {
	const rows = new Map<string, Row>();
	for (const line of (await readFile(DOC, 'utf8')).split('\n')) {
		const cells = line.split('|').map((cell) => cell.trim());
		// | route | methods | who | `file.ts` |
		const file = /^`([\w-]+\.ts)`$/.exec(cells[4] ?? '')?.[1];
		if (cells.length !== 6 || !file) continue;
		rows.set(file, { route: cells[1]!, methods: cells[2]!, who: cells[3]! });
	}
	return rows;
}

/** What the function's source says about its callers: the role set its authenticate() names. */
function callers(file: string, source: string, schedule: string | undefined): string {
	// A member of a business, signed in by its e-mailed link (src/features/self-service).
	if (/authenticateMember\(\s*req\s*\)/.test(source)) return 'member';
	const call = /authenticate\(\s*req(?:,\s*\{([^}]*)\})?\s*\)/.exec(source);
	// Deploy events, deploy notifications and scheduled runs come from Netlify itself.
	if (!call) return schedule || file.startsWith('deploy-') ? 'Netlify' : 'anyone';
	const set = /roles:\s*ROLE_SETS\.(\w+)/.exec(call[1] ?? '')?.[1] ?? 'staff';
	if (set === 'staff') return 'staff';
	return [...ROLE_SETS[set as keyof typeof ROLE_SETS]].sort().join(', ');
}

describe('docs/api.md', async () => {
	const files = (await readdir(FUNCTIONS)).filter((f) => f.endsWith('.ts')).sort();
	const rows = await documentedRows();

	it('lists exactly the functions there are', () => {
		expect([...rows.keys()].sort()).toEqual(files);
	});

	for (const file of files) {
		it(`${file}: route, methods and callers as the code has them`, async () => {
			const row = rows.get(file);
			expect(row, `${file} is not in docs/api.md`).toBeDefined();
			const source = await readFile(join(FUNCTIONS, file), 'utf8');
			const module = (await import(join(FUNCTIONS, file))) as {
				config?: { path?: string | string[]; schedule?: string };
				default: (req: Request, context: unknown) => Promise<Response>;
			};
			const config = module.config ?? {};

			if (config.schedule) {
				expect(row!.route).toBe(`schedule \`${config.schedule}\``);
				expect(row!.methods).toBe('—');
			} else {
				if (config.path) {
					const paths = [config.path].flat().map((p) => `\`${p}\``);
					expect(row!.route).toBe(paths.join(', '));
				} else {
					expect(row!.route).toBe(`event \`${file.replace(/\.ts$/, '')}\``);
				}
				// PUT: a method no function takes.
				const answer = await module.default(
					new Request('http://localhost/api/x', { method: 'PUT' }),
					{ params: {} },
				);
				if (file.endsWith('-background.ts')) {
					// Netlify answers a background function's caller 202 at once; the function
					// itself answers nothing and ignores what is not a POST.
					expect(answer).toBeUndefined();
					expect(row!.methods).toBe('POST');
				} else {
					expect(answer.status).toBe(405);
					expect(answer.headers.get('allow')).toBe(row!.methods);
				}
			}
			expect(row!.who).toBe(callers(file, source, config.schedule));
			// Importing a function loads everything it bundles, seconds on a busy machine.
		}, 60_000);
	}
});
