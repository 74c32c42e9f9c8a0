/**
 * The functions in a server process of their own, as `npm start` serves them (the local Netlify
 * server, every function of netlify/functions), for tests that watch the process from outside
 * (its memory in /proc). The environment names the stack (SUPABASE_URL and its keys), the chamber
 * (TENANT) and the port (PORT); it prints `listening <url>` once it answers.
 */
import { startSiteServer } from '../../scripts/local-netlify/server.ts';

const server = await startSiteServer({
	distDir: 'public',
	functionsDir: 'netlify/functions',
	port: Number(process.env.PORT),
});
console.log(`listening ${server.url}`);
process.once('SIGTERM', () => {
	void server.close().then(() => process.exit(0));
});
