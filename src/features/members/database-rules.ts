import { databaseRule, type ValueRule } from '../config/database-rules.ts';
import { BUSINESS_FIELDS, fieldSchema } from './members.ts';

/**
 * What the database checks of a staff change of a business (public.business_rules(), used by
 * save_business): each field's JSON type, text lengths, list sizes and items. Derived from the
 * fields' zod schemas, so the two cannot drift: tests/db/business-admin.test.ts compares this
 * with the database's copy, and a schema change needs a migration that redefines
 * business_rules() with the output of `node scripts/business-rules.ts`.
 */
export function businessDatabaseRules(): Record<string, ValueRule> {
	return Object.fromEntries(
		BUSINESS_FIELDS.map((field) => [field, databaseRule(fieldSchema(field))]),
	);
}
