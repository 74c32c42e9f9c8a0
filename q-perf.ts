import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const db = await PGlite.create({ dataDir: '.data-bench/pglite', extensions: { pg_trgm, btree_gin } });
const id = (await db.query<{ id: string }>(`select id from public.tenants where slug='big'`)).rows[0]!.id;
const time = async (label: string, q: string, params: unknown[] = [id]) => {
	await db.query(q, params);
	const runs: number[] = [];
	for (let i = 0; i < 7; i++) { const s = performance.now(); await db.query(q, params); runs.push(performance.now() - s); }
	runs.sort((a, b) => a - b);
	console.log(label.padEnd(40), runs.map((r) => r.toFixed(0)).join(' '));
};
const box = `p.tenant_id = $1 and p.published and p.latitude is not null and p.latitude between 41.6 and 42.4 and p.longitude between -92.2 and -91.1`;
await time('count in box', `select count(*) from public.profiles p where ${box}`);
await time('count(lat+lng) in box', `select count(*), sum(p.latitude + p.longitude) from public.profiles p where ${box}`);
await time('haversine all, top 24', `select p.id, 2*6371.0088*asin(least(1,sqrt(power(sin(radians(p.latitude-41.978)/2),2)+cos(radians(41.978))*cos(radians(p.latitude))*power(sin(radians(p.longitude+91.666)/2),2)))) km, count(*) over () from public.profiles p where ${box} order by km, p.id limit 24`);
await time('flat d2 top 24 (no trig)', `select p.id, (p.latitude-41.978)^2 + ((p.longitude+91.666)*0.743)^2 d, count(*) over () from public.profiles p where ${box} order by d, p.id limit 24`);
await time('flat d2 top 24, no window', `select p.id, (p.latitude-41.978)^2 + ((p.longitude+91.666)*0.743)^2 d from public.profiles p where ${box} order by d, p.id limit 24`);
const plan = await db.query<{ 'QUERY PLAN': string }>(`explain analyze select p.id, 2*6371.0088*asin(least(1,sqrt(power(sin(radians(p.latitude-41.978)/2),2)+cos(radians(41.978))*cos(radians(p.latitude))*power(sin(radians(p.longitude+91.666)/2),2)))) km, count(*) over () from public.profiles p where ${box} order by km, p.id limit 24`, [id]);
console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
await db.close();
