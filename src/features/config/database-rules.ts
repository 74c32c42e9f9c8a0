import { z } from 'zod';
import { chamberConfigSchema } from './config.ts';
import { CONFIG_COLUMNS } from './config.ts';

/**
 * What the database checks of every configuration value (public.config_rules(), used by the
 * chamber_config trigger): each field's JSON type, and for text its length and allowed values,
 * for lists their size and items, for objects their known fields. Derived from the zod schema,
 * so the two cannot drift: tests/db/config-validation.test.ts compares this with the database's
 * copy, and a change to the schema needs a migration that redefines config_rules() with the
 * output of `node scripts/config-rules.ts`. Patterns stay the zod schema's alone (JSON Schema
 * drops regular-expression flags); a value of the right type and size cannot break a page.
 */

export interface ValueRule {
	/** JSON types allowed: string, number, integer, boolean, array, object, null. */
	types: string[];
	maxLength?: number;
	enum?: string[];
	maxItems?: number;
	items?: ValueRule;
	properties?: Record<string, ValueRule>;
	required?: string[];
}

type JsonSchema = {
	type?: string | string[];
	anyOf?: JsonSchema[];
	maxLength?: number;
	enum?: unknown[];
	maxItems?: number;
	items?: JsonSchema;
	properties?: Record<string, JsonSchema>;
	required?: string[];
};

function toRule(schema: JsonSchema): ValueRule {
	const branches = schema.anyOf ?? [schema];
	const rule: ValueRule = { types: [] };
	for (const branch of branches) {
		const types = Array.isArray(branch.type) ? branch.type : branch.type ? [branch.type] : [];
		for (const type of types) if (!rule.types.includes(type)) rule.types.push(type);
		if (branch.maxLength !== undefined) rule.maxLength = branch.maxLength;
		if (branch.enum && branch.enum.every((v) => typeof v === 'string')) {
			rule.enum = branch.enum as string[];
		}
		if (branch.maxItems !== undefined) rule.maxItems = branch.maxItems;
		if (branch.items) rule.items = toRule(branch.items);
		if (branch.properties) {
			rule.properties = Object.fromEntries(
				Object.entries(branch.properties).map(([key, value]) => [key, toRule(value)]),
			);
			if (branch.required?.length) rule.required = branch.required;
		}
	}
	// An enum of strings is a string whatever else the branch said.
	if (rule.enum && rule.types.length === 0) rule.types.push('string');
	rule.types.sort();
	return rule;
}

/** What the database checks of a value the zod schema reads (its input side). */
export function databaseRule(schema: z.ZodType): ValueRule {
	return toRule(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

/** The rules of every jsonb column of chamber_config, keyed by column name. */
export function configDatabaseRules(): Record<string, ValueRule> {
	const sections = chamberConfigSchema.shape;
	const rules: Record<string, ValueRule> = {};
	for (const [key, column] of Object.entries(CONFIG_COLUMNS)) {
		const rule = databaseRule(sections[key as keyof typeof sections]);
		if (rule.types.includes('object')) rules[column] = rule;
	}
	return rules;
}

/**
 * The SQL that redefines a rules function (`public.config_rules()`, `public.business_rules()`)
 * to answer `rules`: one line per key, so a migration's diff shows which one changed.
 */
export function rulesFunctionSql(name: string, rules: Record<string, ValueRule>): string {
	const json = `{\n${Object.entries(rules)
		.map(([key, rule]) => `\t"${key}": ${JSON.stringify(rule)}`)
		.join(',\n')}\n}`.replaceAll("'", "''");
	return `create or replace function public.${name}()
returns jsonb
language sql
immutable
set search_path = ''
as $rules$
	select '${json}'::jsonb;
$rules$;`;
}
