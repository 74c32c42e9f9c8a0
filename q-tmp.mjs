import pg from 'pg';
const [q, withId] = [process.argv[2], process.argv[3] === 'id'];
const c = new pg.Client({ connectionString: 'postgres://postgres:postgres@127.0.0.1:57332/postgres' });
await c.connect();
const t = await c.query(`select id from public.tenants where slug='big'`);
const s = Date.now();
const r = await Promise.race([
	c.query(q, withId ? [t.rows[0].id] : []),
	new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 30000)),
]).catch((e) => ({ error: e.message }));
console.log(q.slice(0, 70), r.error ?? JSON.stringify(r.rows[0].j).length, Date.now() - s, 'ms');
process.exit(0);
