import { request } from 'node:http';
import { startSiteServer } from '../../scripts/local-netlify/server.ts';
import { freePort } from './db-clients.ts';

/** What the functions need of the stack vitest provides (`inject('stack')`). */
interface StackKeys {
	supabaseUrl: string;
	anonKey: string;
	serviceKey: string;
}

/** A function's answer: the body parsed when it is JSON, else its text; null when empty. */
export interface Answer {
	status: number;
	headers: Headers;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of every shape
	body: any;
}

export interface CallOptions {
	/** Default POST when there is a body, else GET. */
	method?: string;
	/** Sent as JSON. */
	body?: unknown;
	/** Sent as it is, as JSON's content type: a body that is not JSON, or must stay byte-exact. */
	raw?: string;
	/** Sent as multipart/form-data. */
	form?: FormData;
	/** A bearer access token. */
	token?: string;
	headers?: Record<string, string>;
	/** The loopback address the request leaves from (127.0.0.x): the server reports it as the
	 * visitor's address, so each address is another visitor to the rate limits. */
	from?: string;
}

export interface FunctionServer {
	/** `http://localhost:{port}`, as the functions see their site. */
	url: string;
	call(path: string, options?: CallOptions): Promise<Answer>;
	/** Stops the server and gives the process back the environment it had. */
	close(): Promise<void>;
}

export interface FunctionEnvOptions {
	/** The chamber the functions serve (TENANT). */
	tenant: string;
	/** More variables; an undefined value unsets one. */
	env?: Record<string, string | undefined>;
}

/**
 * Sets the environment the functions read, in this process, to the test stack's (its URL and
 * keys) and `options`; answers what gives the process back the environment it had.
 */
export function setFunctionEnv(stack: StackKeys, options: FunctionEnvOptions): () => void {
	const saved = { ...process.env };
	Object.assign(process.env, {
		SUPABASE_URL: stack.supabaseUrl,
		SUPABASE_ANON_KEY: stack.anonKey,
		SUPABASE_SERVICE_ROLE_KEY: stack.serviceKey,
		TENANT: options.tenant,
	});
	for (const [name, value] of Object.entries(options.env ?? {})) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
	return () => {
		process.env = saved;
	};
}

/**
 * netlify/functions/* over real HTTP, in the local Netlify server in this process, against the
 * test stack: the environment the functions read (setFunctionEnv) holds until close().
 * `public/` stands in for the built site, so its files (the demo banners) are served as a
 * deploy's would be.
 */
export async function startFunctionServer(
	stack: StackKeys,
	options: FunctionEnvOptions,
): Promise<FunctionServer> {
	const restoreEnv = setFunctionEnv(stack, options);
	const site = await startSiteServer({
		distDir: 'public',
		functionsDir: 'netlify/functions',
		port: await freePort(),
	});
	const port = new URL(site.url).port;
	return {
		url: site.url,
		call: (path, callOptions) => call(port, path, callOptions),
		async close() {
			await site.close();
			restoreEnv();
		},
	};
}

async function call(port: string, path: string, options: CallOptions = {}): Promise<Answer> {
	let payload: Buffer | undefined;
	const headers: Record<string, string> = {};
	if (options.form) {
		// The multipart body and its boundary, as fetch would send them.
		const encoded = new Request('http://localhost/', { method: 'POST', body: options.form });
		payload = Buffer.from(await encoded.arrayBuffer());
		headers['content-type'] = encoded.headers.get('content-type')!;
	} else if (options.raw !== undefined || options.body !== undefined) {
		payload = Buffer.from(options.raw ?? JSON.stringify(options.body));
		headers['content-type'] = 'application/json';
	}
	// Node frames a DELETE's body only with an explicit length.
	if (payload) headers['content-length'] = String(payload.byteLength);
	if (options.token) headers.authorization = `Bearer ${options.token}`;
	Object.assign(headers, options.headers);
	return new Promise((resolve, reject) => {
		const req = request(
			{
				hostname: '127.0.0.1',
				port,
				path,
				method: options.method ?? (payload ? 'POST' : 'GET'),
				localAddress: options.from ?? '127.0.0.1',
				headers,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('error', reject);
				res.on('end', () => {
					const answerHeaders = new Headers();
					for (const [name, value] of Object.entries(res.headers)) {
						for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
					}
					const text = Buffer.concat(chunks).toString('utf8');
					const json = answerHeaders.get('content-type')?.includes('json');
					const answer = {
						status: res.statusCode ?? 0,
						body: text === '' ? null : json ? JSON.parse(text) : text,
					} as Answer;
					// Not enumerable: an answer still equals a plain {status, body}.
					Object.defineProperty(answer, 'headers', { value: answerHeaders, enumerable: false });
					resolve(answer);
				});
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}
