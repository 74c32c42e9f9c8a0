import { describe, expect, it } from 'vitest';
import { describeMode, readStackEnv } from './env.server.ts';

const KEY = 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.signature-part';

describe('readStackEnv: one place decides where the data lives', () => {
	it('defaults to the embedded PGlite stack in .data on ports 54321–54323', () => {
		const env = readStackEnv({});
		expect(env.mode).toBe('embedded');
		expect(env.dataDir).toBe('.data');
		expect(env.ports).toEqual({ gateway: 54321, database: 54322, postgrest: 54323 });
		expect(describeMode(env)).toContain('PGlite in .data/');
	});

	it('switches to a real Postgres with DATABASE_URL, never printing its password', () => {
		const env = readStackEnv({ DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/chamber' });
		expect(env.mode).toBe('postgres');
		expect(describeMode(env)).toContain('postgres://app:***@db.internal:5432/chamber');
		expect(describeMode(env)).not.toContain('s3cret');
	});

	it('uses a hosted Supabase project when its URL and both keys are set', () => {
		const env = readStackEnv({
			SUPABASE_URL: 'https://abc.supabase.co',
			SUPABASE_ANON_KEY: KEY,
			SUPABASE_SERVICE_ROLE_KEY: KEY,
			DATABASE_URL: 'postgres://u:p@h/db',
		});
		expect(env.mode).toBe('hosted');
		expect(env.hosted?.url).toBe('https://abc.supabase.co');
	});

	it('rejects half a hosted configuration and bad values with readable messages', () => {
		expect(() => readStackEnv({ SUPABASE_URL: 'https://abc.supabase.co' })).toThrow(
			/SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY go together/,
		);
		expect(() => readStackEnv({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL/);
		expect(() => readStackEnv({ CHAMBER_STACK_PORT: '80' })).toThrow(/CHAMBER_STACK_PORT/);
	});

	it('takes the data folder and base port from the environment', () => {
		const env = readStackEnv({ CHAMBER_DATA_DIR: '.data-test/x', CHAMBER_STACK_PORT: '55321' });
		expect(env.dataDir).toBe('.data-test/x');
		expect(env.ports.postgrest).toBe(55323);
	});
});
