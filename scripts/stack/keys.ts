import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';

export interface StackKeys {
	jwtSecret: string;
	anonKey: string;
	serviceKey: string;
}

/**
 * The anon and service keys are real HS256 JWTs, as Supabase issues them, signed with a
 * secret generated once per data folder, so PostgREST checks them exactly as in production.
 */
export async function loadOrCreateKeys(dataDir: string): Promise<StackKeys> {
	await mkdir(dataDir, { recursive: true });
	const file = join(dataDir, 'jwt-secret');
	let jwtSecret: string;
	try {
		jwtSecret = (await readFile(file, 'utf8')).trim();
	} catch {
		jwtSecret = randomBytes(48).toString('base64url');
		await writeFile(file, jwtSecret + '\n', { mode: 0o600 });
	}
	return {
		jwtSecret,
		anonKey: await signRoleKey(jwtSecret, 'anon'),
		serviceKey: await signRoleKey(jwtSecret, 'service_role'),
	};
}

async function signRoleKey(secret: string, role: 'anon' | 'service_role'): Promise<string> {
	// Fixed iat/exp keep the key identical across restarts, as a project's keys are.
	return new SignJWT({ role, iss: 'supabase-local' })
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.setIssuedAt(1_767_225_600)
		.setExpirationTime(4_102_444_800)
		.sign(new TextEncoder().encode(secret));
}
