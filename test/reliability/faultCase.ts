/**
 * An operation as the fault suite drives it: three valid items, what the sandbox must hold first,
 * where a fault hits the first request, whether docs/delivery.md (Retries and pacing) lets it be
 * resent, and how much of the three items' work the sandbox holds afterwards (which must never exceed
 * three: a count past it is data stored twice). Each operation's row (test/conservation/<node>Cases.ts)
 * gives its own; the three profiles and items below are the ones most rows share.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SeedData, StateView } from '../../sandbox';
import type { EndpointTemplate } from '../conservation/endpoints';

export interface OperationUnderFault {
	name: string;
	nodeType: string;
	credential: 'api' | 'scim';
	parameters: INodeParameters;
	seed: SeedData;
	items: IDataObject[];
	/** Method and exact path of the first request the run sends. */
	firstRequest: { method: string; path: string };
	/** Each item sends its own request (the fault then concerns item 0 alone); otherwise one request carries all three. */
	requestPerItem: boolean;
	/** docs/delivery.md, Retries and pacing: resent after a 5xx, reset or timeout only where a resend cannot duplicate data. */
	resendsAfterServerError: boolean;
	/** How many of the items' changes the sandbox holds; absent for an operation that only reads. */
	applied?(state: StateView): number;
}

export const FAULT_IDS = [0, 1, 2];
/** Three profiles known by external ID and email. */
export const faultProfiles = FAULT_IDS.map((i) => ({ external_id: `crm-${i}`, email: `crm${i}@example.com` }));
/** Three items, each naming one of `faultProfiles` by its external ID. */
export const faultItems = FAULT_IDS.map((i) => ({ id: `crm-${i}` }));

/** The three `faultItems` in one request to `endpoint`, with the API key. */
export const inOneRequest = ({ method, path }: EndpointTemplate) => ({
	credential: 'api' as const,
	items: faultItems,
	firstRequest: { method, path },
	requestPerItem: false,
});
