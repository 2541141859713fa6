import { z } from 'zod/v4';

/**
 * The connected audience object: AND / OR nodes over the four leaf kinds the spec shows. The
 * spec calls its comparison list incomplete, so any non-empty comparison name is let through;
 * the platform judges the rest.
 */
const comparison = z.string({ error: 'comparison is required' }).min(1, 'comparison is required');

const leaves = {
	custom_attribute: z
		.object({
			custom_attribute_name: z.string().min(1, 'custom_attribute_name is required'),
			comparison,
			value: z.unknown().optional(),
		})
		.strict(),
	push_subscription_status: z.object({ comparison, value: z.unknown() }).strict(),
	email_subscription_status: z.object({ comparison, value: z.unknown() }).strict(),
	last_used_app: z.object({ comparison, value: z.unknown() }).strict(),
};

type AudienceNode = { AND: AudienceNode[] } | { OR: AudienceNode[] } | Record<string, unknown>;

export const connectedAudience: z.ZodType<AudienceNode> = z.lazy((): z.ZodType<AudienceNode> =>
	z.union(
		[
			z.object({ AND: z.array(connectedAudience).min(1, 'must hold at least one condition') }).strict(),
			z.object({ OR: z.array(connectedAudience).min(1, 'must hold at least one condition') }).strict(),
			...Object.entries(leaves).map(([kind, leaf]) => z.object({ [kind]: leaf }).strict()),
		] as unknown as [z.ZodType<AudienceNode>, z.ZodType<AudienceNode>, ...Array<z.ZodType<AudienceNode>>],
		{
			error: () =>
				'must be {"AND": [...]}, {"OR": [...]} or one condition: custom_attribute, push_subscription_status, email_subscription_status or last_used_app',
		},
	),
);

export const AUDIENCE_EXAMPLE =
	'{"AND": [{"custom_attribute": {"custom_attribute_name": "plan", "comparison": "equals", "value": "gold"}}, {"email_subscription_status": {"comparison": "is", "value": "opted_in"}}]}';
